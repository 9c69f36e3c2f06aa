// Package clock is time as the lab sees it: Real, the wall clock, for a
// normal run; Virtual, whose time moves only when its driver advances it,
// for a run that must be replayed exactly (explore tries every
// interleaving of a script on virtual time).
//
// Whatever waits or reads the time through a Clock (a sleep, a macro's
// --work, the embedded server's TTLs) follows the one it is given.
package clock
