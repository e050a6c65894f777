/* kayles: the grundy library from C. Compiles a small program, prints a table of Kayles
 * values, solves a sum under two conventions with its winning moves, and shows a located
 * error. Build: cc kayles.c $(pkg-config --cflags --libs grundy), or with CMake's
 * find_package(grundy) and grundy::grundy (see CMakeLists.txt here). */
#include <grundy.h>
#include <stdio.h>
#include <string.h>

static const char *SOURCE =
    "game kayles = octal \"0.77\";      # knock down one pin or two adjacent ones\n"
    "game nim = subtract 1..;\n";

int main(void) {
    gr_diagnostic d;
    gr_program *p = gr_compile(SOURCE, "kayles.game", &d);
    if (!p) { fprintf(stderr, "%d:%d: %s\n", d.line, d.column, d.message); return 1; }
    printf("grundy %s\n", gr_version());

    int64_t v[21];
    if (gr_table(p, "kayles", 0, 20, v) != 0) { fprintf(stderr, "%s\n", gr_last_error(p)); return 1; }
    printf("kayles(0..20):");
    for (int i = 0; i <= 20; i++) printf(" %lld", (long long)v[i]);
    printf("\n");

    gr_answer a;
    if (gr_solve(p, "kayles(5) + nim(3)", GR_NORMAL, &a) != 0) { fprintf(stderr, "%s\n", gr_last_error(p)); return 1; }
    printf("kayles(5) + nim(3): %c, sg %lld\n", a.outcome, (long long)a.sg);
    char moves[1024];
    int n = 0;
    gr_winning_moves(p, "kayles(5) + nim(3)", GR_NORMAL, moves, sizeof moves, &n);
    for (const char *m = moves; n-- > 0; m += strlen(m) + 1) printf("  -> %s\n", m);
    if (gr_solve(p, "kayles(5) + nim(3)", GR_MISERE, &a) == 0) printf("misere: %c\n", a.outcome);

    int rc = gr_solve(p, "kayles(5) + nimm(3)", GR_NORMAL, &a);
    printf("bad position: %s (%s)\n", gr_strerror(rc), gr_last_error(p));
    gr_program_free(p);
    return 0;
}
