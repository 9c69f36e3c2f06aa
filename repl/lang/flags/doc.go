// Package flags is the one reader of a lab word's arguments: its
// positional arguments and its --flags, from one Spec per word. The same
// Spec gives the word's usage line (help, errors), the check of a
// script's calls before it runs (Check), and Tab's completion of its
// subcommands, flags and a flag's choices (Complete, Hint).
//
// The grammar, for every word alike:
//   - a flag is a word that starts with "--": --name value or
//     --name=value; a switch (Bool) takes no value;
//   - flags may come anywhere among the positional arguments;
//   - "--" ends the flags: every word after it is positional;
//   - a word that starts with a single "-" is positional (clock jump A
//     -300ms).
//
// Values are read by kind: Bool, String, Int (a whole number, from Min),
// Duration (a DUR with its unit, read by package duration: a bare number
// is refused with its one message), and Enum (one of Choices).
//
// Every error is one line (*Error): the word, the problem, and one hint
// in parentheses, the name meant for a typo near one, else the word's
// usage line: "book: unknown flag --wrk (did you mean --work?)",
// "load: --retry needs one of fixed, backoff, notify, got \"bogus\"
// (usage: load [--workers N] ...)", "book: missing BIDDER (usage: book
// BIDDER [--slot KEY] ...)". The word kernel reads an *Error as a usage
// error: status 2.
//
// --help is no flag of any spec: HelpAsked says a call asks for the
// word's help (or its subcommand's), wherever the parser would read a
// flag, and the word kernel answers it before the word runs, so that
// Parse and its callers never see it.
//
// The package imports nothing of the project but package duration, so
// that the language, the lab and explore read arguments alike.
package flags
