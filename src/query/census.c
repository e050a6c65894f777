/* census: classes of a family's members; see census.h. */
#include "census.h"
#include <string.h>
#include "check.h"
#include "members.h"
#include "show.h"

/* Union-find with offsets: member i's values are its parent's from heap n + off[i]. The root
 * of a class is always its least member (the larger root joins the smaller). */
typedef struct classes { int *parent; int64_t *off; } classes;

static int find(classes *k, int i, int64_t *off) {
    int64_t d = 0;
    while (k->parent[i] != i) { d += k->off[i]; i = k->parent[i]; }
    *off = d;
    return i;
}

/* b(n) = a(n + d). */
static void join(classes *k, int a, int b, int64_t d) {
    int64_t oa, ob;
    int ra = find(k, a, &oa), rb = find(k, b, &ob);
    if (ra == rb) return;
    int64_t rel = d + oa - ob;          /* rb(m) = ra(m + rel) */
    if (ra < rb) { k->parent[rb] = ra; k->off[rb] = rel; }
    else { k->parent[ra] = rb; k->off[ra] = -rel; }
}

static int same(const uint64_t *x, const uint64_t *y) { return x[0] == y[0] && x[1] == y[1]; }

static void member_text(const gr_rquery *q, int i, int64_t off, char *buf, size_t cap) {
    if (off) snprintf(buf, cap, "%s(%+lld)", q->member_labels[i], (long long)off);
    else snprintf(buf, cap, "%s", q->member_labels[i]);
}

static void print_class(const gr_rquery *q, int cls, int root, const int *members, const int64_t *offs, int n,
                        const gr_member_result *res, gr_format fmt, FILE *out) {
    int proved = 1;
    for (int k = 0; k < n; k++) proved &= res[members[k]].check.status == GR_CHECK_PROVED && res[members[k]].check.has_period;
    const gr_member_result *first = &res[root];
    const gr_check_result *r = &first->check;
    if (fmt == GR_FMT_JSON) {
        fprintf(out, "{\"query\":\"census\",\"class\":%d,\"status\":\"%s\",\"checked_to\":%lld,\"largest\":%lld",
                cls, proved ? "proved" : "none", (long long)q->census_to, (long long)first->largest);
        gr_check_rare_json(r, out);   /* the check's rare-value columns, where its kernel ran */
        fputs(",\"members\":[", out);
        for (int k = 0; k < n; k++) {
            const gr_check_result *mr = &res[members[k]].check;
            fprintf(out, "%s{\"code\":", k ? "," : "");
            gr_json_string(out, q->member_labels[members[k]]);
            if (proved) fprintf(out, ",\"preperiod\":%lld,\"period\":%lld}", (long long)mr->preperiod, (long long)mr->period);
            else fputs(",\"preperiod\":null,\"period\":null}", out);
        }
        fputs("]}\n", out);
        return;
    }
    char status[64], period[32], pre[32], text[512];
    if (proved) {
        snprintf(status, sizeof status, "proved");
        snprintf(period, sizeof period, "%lld", (long long)r->period);
        snprintf(pre, sizeof pre, "%lld", (long long)r->preperiod);
    } else {
        snprintf(status, sizeof status, "none to %lld", (long long)q->census_to);
        snprintf(period, sizeof period, fmt == GR_FMT_CSV ? "" : "-");
        snprintf(pre, sizeof pre, fmt == GR_FMT_CSV ? "" : "-");
    }
    if (fmt == GR_FMT_CSV) {
        fprintf(out, "%d,%s,%lld,%s,%s,%lld,%lld,\"", cls, proved ? "proved" : "none", (long long)q->census_to, period, pre,
                (long long)first->largest, (long long)first->largest_at);
        for (int k = 0; k < n; k++) {
            member_text(q, members[k], offs[k], text, sizeof text);
            fprintf(out, "%s%s", k ? " " : "", text);
        }
        fputs("\",", out);
        gr_csv_string(out, proved ? r->theorem : "");
        fputc('\n', out);
        return;
    }
    fprintf(out, "  %-5d  %-16s  %-6s  %-9s  %-7lld  %-10lld ", cls, status, period, pre, (long long)first->largest,
            (long long)first->largest_at);
    for (int k = 0; k < n; k++) {
        member_text(q, members[k], offs[k], text, sizeof text);
        fprintf(out, " %s", text);
    }
    fputc('\n', out);
    if (proved) fprintf(out, "         %s: %s\n", q->member_labels[root], r->theorem);
    gr_check_columns_text(r, "         ", out);
}

/* ---- census misere: classes of equal quotients with their pretending functions ---- */
static const char *const MISERE_STATUS[] = { "stable", "growing", "limit" };

static void tame_text(const gr_misere_member *mm, char *buf, size_t cap) {
    if (mm->status == GR_MISERE_LIMIT) snprintf(buf, cap, "-");
    else if (mm->tame_k > 0) snprintf(buf, cap, "T%d", mm->tame_k);
    else snprintf(buf, cap, mm->tame_k < 0 ? "T0" : "wild");
}

static void print_misere_class(const gr_rquery *q, int cls, const int *members, int n, const gr_member_result *res,
                               gr_format fmt, FILE *out) {
    const gr_misere_member *mm = &res[members[0]].misere;
    char tame[16], from[32];
    tame_text(mm, tame, sizeof tame);
    int stable = mm->status == GR_MISERE_STABLE, limit = mm->status == GR_MISERE_LIMIT;
    if (fmt == GR_FMT_JSON) {
        fprintf(out, "{\"query\":\"census\",\"convention\":\"misere\",\"class\":%d,\"status\":\"%s\",\"checked_to\":%lld,"
                     "\"order\":%d,\"p_order\":%d,\"tame\":", cls, MISERE_STATUS[mm->status], (long long)mm->reached,
                mm->order, mm->p_order);
        if (!limit && mm->tame_k) fprintf(out, "\"%s\"", tame); else fputs("false", out);
        fprintf(out, ",\"last_growth\":%lld,\"periodic_from\":", (long long)mm->last_growth);
        if (stable) fprintf(out, "%lld,\"period\":%lld", (long long)mm->periodic_from, (long long)mm->period);
        else fputs("null", out);
        if (limit) {
            fputs(",\"limit\":", out);
            gr_json_string(out, mm->limit);
            fputs(",\"growth\":[", out);
            for (int k = 0; k < mm->ngrowth; k++)
                fprintf(out, "%s[%lld,%lld]", k ? "," : "", (long long)mm->growth[k][0], (long long)mm->growth[k][1]);
            fputc(']', out);
        }
        fputs(",\"members\":[", out);
        for (int k = 0; k < n; k++) {
            if (k) fputc(',', out);
            gr_json_string(out, q->member_labels[members[k]]);
        }
        fputs("]}\n", out);
        return;
    }
    if (stable) snprintf(from, sizeof from, "%lld", (long long)mm->periodic_from);
    else snprintf(from, sizeof from, fmt == GR_FMT_CSV ? "" : "-");
    if (fmt == GR_FMT_CSV) {
        fprintf(out, "%d,%s,%lld,%d,%d,%s,%lld,%s,\"", cls, MISERE_STATUS[mm->status], (long long)mm->reached, mm->order,
                mm->p_order, limit ? "" : tame, (long long)mm->last_growth, from);
        for (int k = 0; k < n; k++) fprintf(out, "%s%s", k ? " " : "", q->member_labels[members[k]]);
        fputs("\",\"", out);
        for (int k = 0; limit && k < mm->ngrowth; k++)
            fprintf(out, "%s%lld:%lld", k ? " " : "", (long long)mm->growth[k][0], (long long)mm->growth[k][1]);
        fputs("\"\n", out);
        return;
    }
    fprintf(out, "  %-5d  %-7s  %-6d  %-5d  %-5s  %-11lld  %-13s ", cls, MISERE_STATUS[mm->status], mm->order, mm->p_order,
            tame, (long long)mm->last_growth, from);
    for (int k = 0; k < n; k++) fprintf(out, " %s", q->member_labels[members[k]]);
    fputc('\n', out);
    if (stable) fprintf(out, "         period %lld from heap %lld (proved)\n", (long long)mm->period, (long long)mm->periodic_from);
    if (limit) {
        fprintf(out, "         stopped at %s\n         order by heap:", mm->limit);
        for (int k = 0; k < mm->ngrowth; k++)
            fprintf(out, "%s%lld:%lld", k % 12 ? " " : "\n           ", (long long)mm->growth[k][0], (long long)mm->growth[k][1]);
        fputc('\n', out);
    }
}

static void misere_census_write(const gr_rquery *q, const gr_member_result *res, int *members, int *cls_of, gr_format fmt, FILE *out) {
    int n = q->nmembers, nclasses = 0;
    for (int i = 0; i < n; i++) {
        cls_of[i] = -1;
        for (int j = 0; j < i && cls_of[i] < 0; j++)
            if (cls_of[j] == j && same(res[i].fp_all, res[j].fp_all)) cls_of[i] = j;
        if (cls_of[i] < 0) { cls_of[i] = i; nclasses++; }
    }
    if (fmt == GR_FMT_CSV) fputs("class,status,checked_to,order,p_order,tame,last_growth,periodic_from,members,growth\n", out);
    else if (fmt == GR_FMT_TEXT) {
        fprintf(out, "census %s: %d member%s in %d class%s (equal misere quotients and pretending functions)\n", q->text, n,
                n == 1 ? "" : "s", nclasses, nclasses == 1 ? "" : "es");
        fprintf(out, "  class  status   order   |P|    tame   last_growth  periodic_from  members\n");
    }
    int cls = 0;
    for (int root = 0; root < n; root++) {
        if (cls_of[root] != root) continue;
        int cnt = 0;
        for (int i = root; i < n; i++) if (cls_of[i] == root) members[cnt++] = i;
        print_misere_class(q, ++cls, members, cnt, res, fmt, out);
    }
    if (fmt == GR_FMT_TEXT) fputc('\n', out);
}

/* The classes of a census in one format (res: the members' results, k their classes; the
 * rest scratch of n entries each). */
static void census_write(const gr_rquery *q, const gr_member_result *res, classes *k, int *members, int64_t *offs,
                         int *root_of, int64_t *off_of, gr_format fmt, FILE *out) {
    int n = q->nmembers;
    int nclasses = 0;
    for (int i = 0; i < n; i++) {
        int64_t d;
        nclasses += find(k, i, &d) == i;
    }
    if (fmt == GR_FMT_CSV) fputs("class,status,checked_to,period,preperiod,largest,largest_at,members,theorem\n", out);
    else if (fmt == GR_FMT_TEXT) {
        fprintf(out, "census %s: %d member%s in %d class%s\n", q->text, n, n == 1 ? "" : "s", nclasses, nclasses == 1 ? "" : "es");
        fprintf(out, "  class  status            period  preperiod  largest  largest_at  members (d: values from heap n + d of the first)\n");
    }
    for (int i = 0; i < n; i++) root_of[i] = find(k, i, &off_of[i]);
    int cls = 0;
    for (int root = 0; root < n; root++) {
        if (root_of[root] != root) continue;
        int cnt = 0;
        for (int i = root; i < n; i++)
            if (root_of[i] == root) { members[cnt] = i; offs[cnt++] = off_of[i]; }
        print_class(q, ++cls, root, members, offs, cnt, res, fmt, out);
    }
    if (fmt == GR_FMT_TEXT) fputc('\n', out);
}

void gr_run_census(gr_ctx *c, gr_module *m, int qi, const gr_sink *sk) {
    gr_rquery *q = &m->queries[qi];
    int n = q->nmembers;
    gr_member_result *res = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *res));
    gr_members_run(c, m, qi, res);
    if (q->conv == CONV_MISERE) {
        int *members = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *members)), *cls_of = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *cls_of));
        GR_SINK_EACH(sk, fmt, out) misere_census_write(q, res, members, cls_of, fmt, out);
        gr_free(c, members); gr_free(c, cls_of); gr_free(c, res);
        return;
    }
    classes k = { gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *k.parent)), gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *k.off)) };
    for (int i = 0; i < n; i++) k.parent[i] = i;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (same(res[i].fp_all, res[j].fp_all)) join(&k, i, j, 0);
            else if (same(res[i].fp_tail, res[j].fp_head)) join(&k, i, j, 1);    /* j(n) = i(n + 1) */
            else if (same(res[j].fp_tail, res[i].fp_head)) join(&k, j, i, 1);    /* i(n) = j(n + 1) */
        }
    int *members = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *members));
    int64_t *offs = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *offs));
    int *root_of = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *root_of));
    int64_t *off_of = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *off_of));
    GR_SINK_EACH(sk, fmt, out) census_write(q, res, &k, members, offs, root_of, off_of, fmt, out);
    gr_free(c, off_of);
    gr_free(c, root_of);
    gr_free(c, offs);
    gr_free(c, members);
    gr_free(c, k.off);
    gr_free(c, k.parent);
    gr_free(c, res);
}
