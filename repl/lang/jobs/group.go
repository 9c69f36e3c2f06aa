package jobs

import "context"

// group is the jobs of one run (a script, -c, the REPL, one entry at the
// prompt), however deep: a job started by a job, by a function a job
// calls, or by a subshell or pipeline inside one, counts in the group of
// the run it descends from, and in the groups around that run. The
// interpreter's `wait` waits only for the jobs its own shell started (as
// bash's does); a run's end waits for its group, so that no job of a job
// is cut off by the process ending before its commands are recorded and
// judged. Its fields are guarded by the limit's lock.
type group struct {
	parent *group
	live   int           // slots its jobs hold: about to start, and running
	idle   chan struct{} // closed while live is 0
}

// groupKey carries, in a context, the innermost group of one shell's
// jobs (another shell's contexts, explore's, carry their own).
type groupKey struct{ j *Jobs }

// Group is ctx with a group of its own for the jobs started under it,
// inside the group ctx had (if any). Every job started under the context
// it returns, at any depth, counts in the new group until it ends.
func (j *Jobs) Group(ctx context.Context) context.Context {
	idle := make(chan struct{})
	close(idle)
	g := &group{parent: j.groupOf(ctx), idle: idle}
	return context.WithValue(ctx, groupKey{j}, g)
}

// groupOf is ctx's innermost group, nil for none.
func (j *Jobs) groupOf(ctx context.Context) *group {
	g, _ := ctx.Value(groupKey{j}).(*group)
	return g
}

// WaitGroup waits until every job of ctx's group has ended: the jobs its
// run started, and theirs, whatever the nesting. It returns ctx's error
// when ctx ends first (Ctrl-C).
func (j *Jobs) WaitGroup(ctx context.Context) error {
	g := j.groupOf(ctx)
	if g == nil {
		return nil
	}
	for {
		j.limit.mu.Lock()
		live, idle := g.live, g.idle
		j.limit.mu.Unlock()
		if live == 0 {
			return nil
		}
		select {
		case <-idle: // a job may have started another since: look again
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// join counts n more jobs in g and the groups around it. Called with the
// limit's lock held.
func (g *group) join(n int) {
	for ; g != nil && n > 0; g = g.parent {
		if g.live == 0 {
			g.idle = make(chan struct{})
		}
		g.live += n
	}
}

// leave counts n jobs of g, and of the groups around it, ended; a group
// with none left is idle. Called with the limit's lock held.
func (g *group) leave(n int) {
	for ; g != nil && n > 0; g = g.parent {
		g.live -= n
		if g.live == 0 {
			close(g.idle)
		}
	}
}
