package framework

import (
	"os"
	"runtime"

	. "github.com/onsi/ginkgo/v2"

	"github.com/conform-harness/conform/internal/registration"
)

// AreaDescribe declares a top-level container of an area package (as
// Kubernetes' SIGDescribe): Ginkgo's Describe, registered unless the run
// names the containers to register (registration.Env: conform mutate, for
// a run of a few rules' specs) and this one is not among them. Every
// top-level container of suites/<area> is one (TestTopLevelContainersAreAreas).
func AreaDescribe(text string, args ...any) bool {
	if _, file, line, ok := runtime.Caller(1); ok && !registration.Registers(os.Getenv(registration.Env), file, line) {
		return false
	}
	// Offset(1): the container's location is the caller's line, as with
	// Describe itself: the one registration.Key names, in the dry run from
	// which conform mutate reads it as here.
	return Describe(text, append([]any{Offset(1)}, args...)...)
}
