package jobs

import (
	"math/rand/v2"
	"strconv"
)

// seedVar names, in the variables of a shell that starts a job, the seed
// of that job's $RANDOM: the job's first statement assigns it to RANDOM,
// which seeds the job's own generator. mvdan/sh starts a subshell's
// afresh from the process's random source, so without it the same job
// drew other numbers in every run, and a schedule whose tokens came from
// $RANDOM did not replay.
const seedVar = "LOCKLAB_NEXT_SEED"

// SeedRandom makes each job's $RANDOM start from a seed made of seed and
// the job's id: the same numbers in every run that starts its jobs in
// the same order (explore's schedules). 0, the default, leaves them to
// chance.
func (j *Jobs) SeedRandom(seed uint64) { j.seed.Store(seed) }

// jobSeed is the seed of job id's $RANDOM.
func (j *Jobs) jobSeed(id int) string { return j.seedOf(id, 0) }

// innerSeed is the seed of the $RANDOM of the next job started inside
// job outer (which is part of outer, as in a subshell): without one of
// its own, every such job drew outer's numbers.
func (j *Jobs) innerSeed(outer *job) string {
	j.table.mu.Lock()
	outer.inner++
	n := outer.inner
	j.table.mu.Unlock()
	return j.seedOf(outer.id, n)
}

// seedOf is the seed of the $RANDOM of job id's nth inner job (0: the
// job itself), as a decimal number that mvdan/sh reads whole (below
// 2^63): by chance, or, with SeedRandom, made of its seed.
func (j *Jobs) seedOf(id, nth int) string {
	seed := j.seed.Load() // atomic: Started asks with the table's lock held
	if seed == 0 {
		return strconv.FormatUint(rand.Uint64()>>1, 10)
	}
	return strconv.FormatUint(mix(mix(seed, uint64(id)), uint64(nth))>>1, 10)
}

// scriptSeeds sets the scripts' seeds apart from the jobs': main's first
// script and job 1 drew the same numbers.
const scriptSeeds = 0x5c41b7e5d3a2f961

// ScriptSeed is, when runs are seeded (SeedRandom), the seed of the
// $RANDOM of the next interpreter made for job (its LOCKLAB_JOB; "" for
// main): the shell's own, a whole script's, a script another runs. It is
// made of the seed, job and how many such interpreters job had before,
// so it is the same in every run that takes the same course. ok is false
// when runs are not seeded: the interpreter draws by chance.
func (j *Jobs) ScriptSeed(job string) (seed string, ok bool) {
	base := j.seed.Load()
	if base == 0 {
		return "", false
	}
	j.mu.Lock()
	if j.scripts == nil {
		j.scripts = map[string]int{}
	}
	j.scripts[job]++
	n := mix(base^scriptSeeds, uint64(j.scripts[job]))
	j.mu.Unlock()
	for _, b := range []byte(job) {
		n = mix(n, uint64(b))
	}
	return strconv.FormatUint(n>>1, 10), true
}

// mix is a seed made of seed and n (splitmix64's finaliser): near values
// of n give unrelated seeds.
func mix(seed, n uint64) uint64 {
	z := seed + (n+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
