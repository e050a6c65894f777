/* family: a periodicity check per member of a family; see family.h. */
#include "family.h"
#include <string.h>
#include "check.h"
#include "members.h"
#include "show.h"

static void print_member(gr_rquery *q, int m, const gr_check_result *r, gr_format fmt, FILE *out) {
    const int64_t *args = q->member_args + (size_t)m * (size_t)q->nfam;
    const char *name = q->members[m]->name;
    if (fmt == GR_FMT_JSON) {
        fprintf(out, "{\"query\":\"check\",\"claim\":");
        gr_json_string(out, q->text);
        fprintf(out, ",\"member\":");
        gr_json_string(out, name);
        fprintf(out, ",\"parameters\":{");
        for (int i = 0; i < q->nfam; i++) {
            fprintf(out, "%s\"%s\":", i ? "," : "", q->binds[i].name);
            if (q->param_is_number[i]) fprintf(out, "%lld", (long long)args[i]);
            else gr_json_string(out, q->member_param_text[(size_t)m * (size_t)q->nfam + (size_t)i]);
        }
        fprintf(out, "},\"status\":\"%s\"", gr_check_status_name(r->status));
        if (r->has_period) fprintf(out, ",\"period\":%lld,\"preperiod\":%lld", (long long)r->period, (long long)r->preperiod);
        else fprintf(out, ",\"period\":null,\"preperiod\":null");
        fprintf(out, ",\"checked_to\":%lld,\"counterexample\":%s", (long long)r->checked_to,
                r->has_counterexample ? r->counterexample_json : "null");
        if (r->has_period) fprintf(out, ",\"saltus\":%lld", (long long)r->saltus);
        gr_check_columns_json(r, out);
        fprintf(out, ",\"theorem\":");
        gr_json_string(out, r->theorem);
        gr_check_kernel_json(r, out);
        fprintf(out, "}\n");
    } else if (fmt == GR_FMT_CSV) {
        gr_csv_string(out, q->text);
        fputc(',', out);
        gr_csv_string(out, name);
        fprintf(out, ",%s,", gr_check_status_name(r->status));
        if (r->has_period) fprintf(out, "%lld,%lld,%lld", (long long)r->period, (long long)r->preperiod, (long long)r->saltus);
        else fputs(",,", out);
        fprintf(out, ",%lld", (long long)r->checked_to);
        gr_check_columns_csv(r, out);
        fputc('\n', out);
    } else {
        fprintf(out, "  %s: %s", name, gr_check_status_name(r->status));
        if (r->has_period) {
            fprintf(out, ": period %lld, preperiod %lld", (long long)r->period, (long long)r->preperiod);
            if (r->saltus) fprintf(out, ", saltus %lld", (long long)r->saltus);
        } else if (r->status == GR_CHECK_NONE) {
            fputs(": no period found", out);
        }
        fprintf(out, " (checked to %lld)\n", (long long)r->checked_to);
        if (r->has_counterexample) fprintf(out, "    counterexample: %s\n", r->counterexample_text);
        gr_check_columns_text(r, "    ", out);
    }
}

int gr_run_check_family(gr_ctx *c, gr_module *mod, int qi, const gr_sink *sk) {
    gr_rquery *q = &mod->queries[qi];
    int refuted = 0;
    gr_member_result *res = NULL;
    if (c->spread && q->nmembers > 1 && q->check == CK_PERIODIC) {   /* computed elsewhere first */
        res = gr_alloc(c, gr_size_mul(c, (size_t)q->nmembers, sizeof *res));
        gr_members_run(c, mod, qi, res);
    }
    FILE *csv = sk->out[GR_FMT_CSV], *text = sk->out[GR_FMT_TEXT];
    if (csv) fputs("claim,member,status,period,preperiod,saltus,checked_to" GR_CHECK_COLUMNS_CSV "\n", csv);
    if (text) fprintf(text, "check %s\n", q->text);
    for (int m = 0; m < q->nmembers; m++) {
        gr_check_result r;
        q->game = q->members[m];
        if (res) r = res[m].check;
        else gr_check_run(c, q, &r);
        refuted |= r.status == GR_CHECK_REFUTED;
        GR_SINK_EACH(sk, fmt, out) {
            print_member(q, m, &r, fmt, out);
            fflush(out);     /* each member's line reaches the reader when it is known */
        }
    }
    gr_free(c, res);
    q->game = q->members[0];
    if (text) fputc('\n', text);
    return refuted;
}
