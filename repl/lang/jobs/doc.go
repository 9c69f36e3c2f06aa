// Package jobs makes each background job of the lab language (`cmd &`)
// a session of its own: Name reads a parsed entry, names every job after
// its command line (`./book_no_lock.sh alice &` is alice, `@bob CMD &` is
// bob, `book carol &` is carol, else job1, job2 ...) and rewrites the job
// so that its Redis commands go to that session's connection and its
// output to that session's lines (a lane, which the shell's open handler
// serves, and whose path no script can name: see laneDevice).
// Consecutive jobs (`a & b & wait`) share a start barrier, so that a
// scripted race starts together rather than in goroutine start-up order. Every job takes one of the shell's slots
// (MaxJobs, 500) as it starts and frees it as it ends: past the limit,
// the shell that tried stops, and its run starts no more jobs, so a fork
// bomb (`f(){ f & f; }; f`) dies out.
//
// A job's own jobs run on when it ends, as in bash, but they are not lost:
// every job counts, from its slot's reservation to its end, in the group
// of the run it descends from (Group), whatever shell started it (a job,
// a subshell, a pipeline's side), and a run's end waits for its group
// (WaitGroup) after the interpreter's own wait, which sees only the jobs
// of its own shell.
//
// The run's jobs (those started by a shell that is not itself a job) are
// in a table, for bash's job control words: `jobs` lists them, `kill %N`
// (%NAME, %%) cancels the context of the command a job runs (Bind) and
// stops its shell at its next command (Call), and `wait %N` waits for one
// and is its status. A job runs as `{ LOCKLAB_JOB=ID; JOB; end; }
// 2>hook &`: its starter's StartWord gives it its place in the table (and
// the ID), its hook claims it, the ID among its variables makes its
// commands, and the jobs it starts, known as its own, and end keeps its
// status.
package jobs
