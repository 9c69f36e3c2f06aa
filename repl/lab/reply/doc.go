// Package reply takes a reply from the server to the terminal, the last
// stage of the pipeline: it is remembered (expect reply), printed as
// redis-cli prints it (its TTY format or raw, its `(1.50s)` for a slow
// command at the prompt, its bare error on stderr with -e), recorded and
// annotated, with the notes printed under it. It also says, in
// redis-cli's words plus what to do, why no reply came (ConnFailed), and
// prints a run's verdict.
package reply
