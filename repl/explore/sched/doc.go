// Package sched runs one schedule of a lab script: it is the run's
// session.Gate, its clock (virtual time) and its shell's jobs.Tracker. It
// counts the goroutines doing local work, and only when none is does it
// let one thing happen: a job start (by session name), a sleeper whose
// time has come wake up, or one waiting session's command go. When no
// command can go, virtual time moves to the next sleeper's deadline. A
// read-only command that would only repeat its session's last step
// waits until something else happened. A schedule that cannot go on is
// stopped with a StuckError. Package explore runs one Sched per schedule;
// Between gives it a function to run after each step (explore's oracle).
//
// Its gate hears every command's reply: a command that repeats its
// session's last one for the same answer, one that changed nothing
// (package poll), is a poll's repeat, taken into the step it repeats
// (Ran.Schedule, Step.Repeats): a poll is one step of a schedule as the
// report and a saved schedule name it. Every send still goes through
// the gate, as a choice point when another command could go instead,
// and is one of Ran.Steps.
//
// A command a session sends to another server than the lab's own (a
// Redlock node, on a connection of the lab's) comes through TurnOn: a
// step of its own, named after session and node ("alice@A SET ..."),
// whose keys are that node's (commute.Access.On: it commutes with every
// command to any other server), and whose Sender is the session, which
// the strategies that follow sessions (preemptions, priorities) follow.
//
// Which command goes is the choice, and a Strategy's: the scheduler
// replays the Plan's prefix of choices, and at every turn asks the
// schedule's Chooser which of the waiting commands may go (Enabled) and,
// past the prefix, which goes (Pick), and tells it what happened (Went,
// Moved). The search (package explore) walks the tree of choice points
// depth first, each schedule a prefix and the choices its chooser made
// after it, or, for a Sampler, draws Samples() schedules. Each strategy
// is a file of its own, which says what it does and which flag names it
// (the first five: dfs.go, --no-reduce; reduce.go, sleep sets, the
// default; preempt.go, --preemptions K; pct.go, --random N; random.go,
// --walk N).
//
// Faults (faults.go, explore --faults K) are more options of a turn,
// after the commands: up to Faults.Max a schedule, each one the search
// offers there (time running on, a server restarting, a command whose
// reply is lost). A fault commutes with no command, so the reduced search
// stays exact; it is a step of the schedule's own ("⚡ time +2s"), and a
// choice list replays it.
//
// Adding a strategy touches three files that are not tests, and no
// registration line (the flag is where the strategy is made):
//
//  1. sched/NAME.go: its type, with Mode, Flags and Chooser (and
//     Samples and Sample, for one that draws at random), and its
//     chooser, which embeds first and overrides what it decides.
//     NAME_test.go runs it on the fake sessions of sched_test.go.
//  2. explore/args.go: its flag, an fs.Func that reads the flag's value
//     and calls c.choose(sched.NAME{...}), and its words in Usage. That
//     sets Options.Strategy, from which the summary, --json, --replay,
//     --choices, --save and the replay command follow.
//  3. README.md: a sentence on the flag, in Explore's Bounds.
package sched
