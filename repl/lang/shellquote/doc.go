// Package shellquote writes words as a shell reads them back: a command
// line locklab prints for a person to run (a replay, a saved schedule's),
// and a value on one comment line, its line breaks escaped, so that what
// came from a script's data never becomes a line a script runs.
package shellquote
