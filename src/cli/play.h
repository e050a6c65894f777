/* play: "grundy play FILE.game POSITION": a game against the solver in the terminal. */
#ifndef GRUNDY_PLAY_H
#define GRUNDY_PLAY_H
/* argv[0] is "play"; returns the exit status. */
int gr_play_main(int argc, char **argv);
#endif
