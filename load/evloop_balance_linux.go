//go:build linux

package load

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// A loop that hardly sleeps is what limits the run: the target answers
// faster than one thread sends and reads (a light target, or one on
// another machine). Such a loop hands half its connections to a new loop,
// up to one per processor. A loop that sleeps a fair part of its time
// keeps them: against a target that shares this machine and is slower
// than the generator, more loops only sleep and wake more often and take
// the target's CPU (two loops from the start cost a quarter more CPU per
// request there, for no more requests). Measured on two cores against a
// trivial net/http server, one loop slept 45% of its time; against a
// trivial server answering from a read loop, 10%.

// loopPolicy says when a loop hands over half its connections: after
// windows in a row of at least window each in which it slept less than
// slack of the time. maxLoops bounds the loops of a run.
type loopPolicy struct {
	window   time.Duration
	slack    float64
	windows  int
	maxLoops int
}

// defaultLoopPolicy splits a loop that slept under a fifth of three 50 ms
// windows in a row, up to one loop per processor.
func defaultLoopPolicy() loopPolicy {
	return loopPolicy{window: 50 * time.Millisecond, slack: 0.2, windows: 3, maxLoops: runtime.GOMAXPROCS(0)}
}

// balance measures the loop's slack once per window (now: since the run
// began) and splits it when it
// stayed busy for the policy's windows in a row.
func (l *evloop) balance(now time.Duration) {
	p := &l.e.loopPolicy
	elapsed := now - l.window
	if elapsed < p.window {
		return
	}
	if float64(l.waited) < p.slack*float64(elapsed) {
		l.busyWindows++
	} else {
		l.busyWindows = 0
	}
	l.window, l.waited = now, 0
	if l.busyWindows >= p.windows {
		l.busyWindows = 0
		l.split()
	}
}

// split moves every other open connection, its request in flight and
// what it received, to a new loop of its own, if the policy allows one
// more loop. A dial in progress names its connection by index: the loop
// then waits for a window without one.
func (l *evloop) split() {
	e := l.e
	var keep, move []*loopConn
	for i, c := range l.cs {
		if c.dialing {
			return
		}
		if i%2 == 1 && c.fd >= 0 {
			move = append(move, c)
		} else {
			keep = append(keep, c)
		}
	}
	if len(move) == 0 || !e.takeLoop() {
		return
	}
	n, err := e.newEvloop(len(move))
	if err != nil {
		e.loops.Add(-1)
		return
	}
	for _, c := range move {
		// Closing would not take it out of the set: the new loop holds
		// the same descriptor.
		_ = syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_DEL, c.fd, nil)
		if c.busy {
			l.busy--
			n.busy++
		}
	}
	l.cs, n.cs = keep, move
	l.regroup(syscall.EPOLL_CTL_MOD)
	// Registered before the new loop runs: nothing of a connection is lost
	// between the sets (level-triggered, what arrived meanwhile is ready).
	n.regroup(syscall.EPOLL_CTL_ADD)
	e.wg.Add(1)
	go n.run()
}

// regroup numbers the loop's connections from 0 and registers them with
// its epoll instance under their numbers (op: EPOLL_CTL_ADD for the ones
// it just took, EPOLL_CTL_MOD for its own); a connection that cannot be
// registered fails its request and goes on with a new connection.
func (l *evloop) regroup(op int) {
	for i, c := range l.cs {
		c.i = i
		if c.fd < 0 {
			continue
		}
		events := uint32(syscall.EPOLLIN)
		if c.sent < len(c.out) {
			events |= syscall.EPOLLOUT
		}
		ev := syscall.EpollEvent{Events: events, Fd: int32(i)}
		if err := syscall.EpollCtl(l.epfd, op, c.fd, &ev); err != nil {
			l.fail(c, os.NewSyscallError("epoll_ctl", err))
			l.next(i)
		}
	}
}

// takeLoop counts one more loop, if the policy allows it.
func (e *engine) takeLoop() bool {
	for {
		n := e.loops.Load()
		if int(n) >= e.loopPolicy.maxLoops {
			return false
		}
		if e.loops.CompareAndSwap(n, n+1) {
			return true
		}
	}
}
