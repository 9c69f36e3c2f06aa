// Package timeline draws a lab run: one model built from the run's events,
// notes and lock holdings (the same ones the annotator reads), and three
// renderers, each a pure function of it: a swimlane for the terminal, a
// Mermaid sequenceDiagram, and a self-contained SVG.
//
// Lanes are sessions, time flows down with real offsets from the start of
// the run, and each lock key gets a bar showing who held it and how it
// ended: released, deleted by another session, or expired (an expiry is in
// the picture even though no client sent a command).
//
// Names and values from the run (sessions, keys, tokens, replies) enter
// the model shown as check.Say shows a value (see shown.go): quoted, as
// redis-cli quotes a value, when they hold a control character, so that
// no renderer draws one.
package timeline
