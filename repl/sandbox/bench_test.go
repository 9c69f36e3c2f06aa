package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// childEnv makes the test binary a child that applies locklab's policy
// for its folder and prints how long that took (see TestMain): Landlock
// lasts for the whole process, so the test process itself never does.
const childEnv = "SANDBOX_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		start := time.Now()
		st, err := Apply(Here())
		fmt.Printf("%d %v %v\n", time.Since(start).Nanoseconds(), st.Enforced, err)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// BenchmarkApply is the start-up cost of the sandbox: building the
// policy (redis-server's ELF header included) and restricting, timed in
// a child per iteration (the median, ns/restrict: one child descheduled
// on a busy machine must not move it); ns/op is the child's whole run.
func BenchmarkApply(b *testing.B) {
	var times []time.Duration
	for b.Loop() {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, err := cmd.Output()
		fields := strings.Fields(string(out))
		if err != nil || len(fields) < 2 {
			b.Fatalf("child: %v: %s", err, out)
		}
		ns, _ := strconv.ParseInt(fields[0], 10, 64)
		times = append(times, time.Duration(ns))
		if KernelABI() > 0 && fields[1] != "true" {
			b.Fatalf("child: not enforced: %s", out)
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "ns/restrict")
}
