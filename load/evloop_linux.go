//go:build linux

package load

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// An unlimited run (--rate max) on Linux goes through event loops rather
// than a goroutine per connection: a loop owns its share of the
// connections, waits on its own epoll instance for any of them and answers
// each readable one with its next request, in the manner of wrk. It
// begins with one loop; a busy loop splits (see evloop_balance_linux.go).
// Each connection still has one request in flight at a time (no
// pipelining). A goroutine parked per request and woken by the runtime's
// poller, and the threads woken to run it, were the generator's largest
// cost beyond the system calls.

// loopWait bounds a loop's wait for its connections, so that it notices
// timeouts, dialled connections and the end of the run.
const loopWait = 5 * time.Millisecond

// errPending is what an answer's reader returns when the rest of the
// answer has not arrived yet.
var errPending = errors.New("answer incomplete")

// loopConn is one connection of a loop, with its request in flight.
type loopConn struct {
	i       int // its index in the loop
	fd      int // -1: none (yet, or closed after a failure)
	la, ra  net.Addr
	dialing bool
	busy    bool // r is in flight
	r       vegeta.Result
	tgt     vegeta.Target
	out     []byte
	sent    int
	in      []byte // received, not yet taken by an answer
	eof     bool
	src     pendingReader
	br      *bufio.Reader
}

// pendingReader reads what a connection received: errPending at its end
// while the connection is open, io.EOF once it is closed.
type pendingReader struct{ c *loopConn }

func (p *pendingReader) Read(b []byte) (int, error) {
	c := p.c
	if len(c.in) == 0 {
		if c.eof {
			return 0, io.EOF
		}
		return 0, errPending
	}
	n := copy(b, c.in)
	c.in = c.in[n:]
	return n, nil
}

// dialed is a connection dialled for loop connection i.
type dialed struct {
	i   int
	c   net.Conn
	err error
}

// useLoops starts an event loop instead of workers, where it applies: an
// unlimited run whose results nobody observes. It starts with one loop for
// all the connections (with one per processor from the start, each went to
// sleep and was woken more often than one loop with all the events:
// measured on two cores, the target beside it, a fifth more CPU per
// request); a loop that stays busy hands half its connections to a new
// one, up to one per processor (see balance).
func (e *engine) useLoops() bool {
	if e.pacer != nil || e.observe {
		return false
	}
	e.loops.Store(1)
	e.wg.Add(1)
	go e.loop(int(e.workers))
	return true
}

// loop runs conns connections until the run is over and every answer is in.
func (e *engine) loop(conns int) {
	l, err := e.newEvloop(conns)
	if err != nil {
		e.stop()
		e.wg.Done()
		return
	}
	l.cs = make([]*loopConn, conns)
	for i := range l.cs {
		c := &loopConn{i: i, fd: -1, in: make([]byte, 0, 64<<10)}
		c.src.c = c
		c.br = bufio.NewReaderSize(&c.src, 16<<10)
		l.cs[i] = c
		l.next(i)
	}
	l.run()
}

// newEvloop makes a loop's epoll instance and wake-up pipe, for up to
// conns connections.
func (e *engine) newEvloop(conns int) (*evloop, error) {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("epoll_create1", err)
	}
	l := &evloop{e: e, w: &worker{e: e, batch: make([]vegeta.Result, 0, batchSize)}, epfd: epfd, dials: make(chan dialed, conns)}
	// A dialled connection wakes the loop through a pipe of its own.
	if err := syscall.Pipe2(l.wake[:], syscall.O_NONBLOCK|syscall.O_CLOEXEC); err != nil {
		syscall.Close(epfd)
		return nil, os.NewSyscallError("pipe2", err)
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: -1}
	if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, l.wake[0], &ev); err != nil {
		l.closeFds()
		return nil, os.NewSyscallError("epoll_ctl", err)
	}
	return l, nil
}

// closeFds closes the loop's own descriptors.
func (l *evloop) closeFds() {
	syscall.Close(l.wake[0])
	syscall.Close(l.wake[1])
	syscall.Close(l.epfd)
}

// run answers the loop's connections until the run is over and every
// answer is in.
func (l *evloop) run() {
	e, w := l.e, l.w
	defer e.wg.Done()
	defer l.closeFds()
	defer w.flush()
	defer func() {
		for _, c := range l.cs {
			l.closeConn(c)
		}
	}()
	events := make([]syscall.EpollEvent, max(len(l.cs), 1))
	l.window = time.Since(e.began)
	for l.active() {
		// What is ready already is taken without blocking, outside the
		// scheduler's system-call accounting: a blocking wait hands the
		// processor over and wakes a thread to take it.
		n, err := pollRaw(l.epfd, events, 0)
		var now time.Duration // since the run began: one clock reading per turn
		if n == 0 && err == nil {
			n, now, err = l.sleep(events)
		} else {
			now = time.Since(e.began)
		}
		if err != nil && err != syscall.EINTR {
			e.stop()
			break
		}
		for _, ev := range events[:max(n, 0)] {
			if ev.Fd < 0 {
				var b [64]byte
				_, _ = syscall.Read(l.wake[0], b[:])
				continue
			}
			l.ready(int(ev.Fd), ev.Events)
		}
		l.collectDials()
		l.expire(now)
		if len(w.batch) > 0 {
			last := &w.batch[len(w.batch)-1]
			if len(w.batch) == cap(w.batch) || last.Timestamp.Add(last.Latency).Sub(w.batch[0].Timestamp) > flushEvery {
				w.flush()
			}
		}
		l.balance(now)
	}
}

// evloop is one loop's state.
type evloop struct {
	e     *engine
	w     *worker
	epfd  int
	cs    []*loopConn
	dials chan dialed
	wake  [2]int // a pipe: a byte written when a dial ends
	busy  int    // connections with a request in flight (or dialling for one)
	// dialing counts the connections being dialled.
	dialing int
	// lastExpiry is when expire last looked for requests past the timeout
	// (since the run began).
	lastExpiry time.Duration
	// window began when the loop last measured its slack; waited is how
	// long it slept since; busyWindows counts the windows in a row it
	// hardly slept in (see balance).
	window      time.Duration // since the run began
	waited      time.Duration
	busyWindows int
}

// sleep waits up to loopWait for the loop's connections. A blocking
// system call that the scheduler knows of has its processor taken after
// 20 µs and a thread woken to look for work: one wake-up more per sleep.
// When the target runs in another process and no dial is in progress,
// the loop blocks its thread without telling the scheduler, as wrk's
// threads do (measured on two cores against a light target in 16 paired
// rounds: 14.3 against 17.0 µs of CPU per request, 0.97 of wrk's rate
// against 0.88). Other goroutines (the progress line's) then wait for a
// processor at most loopWait: the runtime preempts a loop that holds one
// longer, and its signal ends the wait. A target in this process (the
// embedded emulator) would lose a processor to each sleeping loop, and a
// dial's goroutine needs one to finish: both wait as the scheduler
// expects. It returns when it woke, since the run began.
func (l *evloop) sleep(events []syscall.EpollEvent) (n int, woke time.Duration, err error) {
	slept := time.Since(l.e.began)
	if l.e.elsewhere && l.dialing == 0 {
		n, err = pollRaw(l.epfd, events, int(loopWait/time.Millisecond))
	} else {
		n, err = syscall.EpollWait(l.epfd, events, int(loopWait/time.Millisecond))
	}
	woke = time.Since(l.e.began)
	l.waited += woke - slept
	return n, woke, err
}

// active tells whether a request is in flight or a connection is dialled.
func (l *evloop) active() bool { return l.busy > 0 }

// next starts connection i's next request, unless the run is over.
func (l *evloop) next(i int) {
	e, c := l.e, l.cs[i]
	for {
		// One clock reading for the run's end and the timestamp (a run
		// without a pacer: see engine.next).
		e.seqMu.Lock()
		sent := time.Since(e.began)
		if e.over(sent) {
			e.seqMu.Unlock()
			return
		}
		c.r = vegeta.Result{Attack: e.name, Seq: e.seq, Timestamp: e.began.Add(sent)}
		e.seq++
		e.seqMu.Unlock()
		c.busy = true
		l.busy++
		c.tgt = vegeta.Target{}
		t := &c.tgt
		if err := e.tr(t); err != nil {
			e.stop() // as Vegeta does: a targeter that fails ends the attack
			l.fail(c, err)
			continue
		}
		c.r.Method, c.r.URL = t.Method, t.URL
		if !strings.HasPrefix(t.URL, e.originPath) { // Confine checks this first; never send elsewhere
			l.fail(c, errors.New("not on the target"))
			continue
		}
		if t.Body != nil {
			c.r.BytesOut = uint64(len(t.Body))
		}
		c.out, c.sent = e.appendRequest(c.out[:0], t), 0
		if c.fd < 0 {
			c.dialing = true
			l.dialing++
			go func() {
				nc, err := e.pool.dialOne(e.ctx, e.addr)
				// Woken first: the loop ends only once it has this dial.
				_, _ = syscall.Write(l.wake[1], []byte{1})
				l.dials <- dialed{i: i, c: nc, err: err}
			}()
			return
		}
		if l.write(c) {
			return
		}
	}
}

// collectDials takes the connections dialled since, and sends their requests.
func (l *evloop) collectDials() {
	for {
		select {
		case d := <-l.dials:
			c := l.cs[d.i]
			c.dialing = false
			l.dialing--
			if d.err == nil {
				d.err = l.adopt(c, d.i, d.c)
			}
			if d.err != nil {
				l.fail(c, d.err)
				l.next(d.i)
			} else if !l.write(c) {
				l.next(d.i)
			}
		default:
			return
		}
	}
}

// adopt takes nc's socket over from the runtime's poller into the loop's.
func (l *evloop) adopt(c *loopConn, i int, nc net.Conn) error {
	defer nc.Close() // the loop keeps a duplicate
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return errors.New("no descriptor")
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return err
	}
	fd, derr := -1, error(nil)
	if err := raw.Control(func(s uintptr) { fd, derr = syscall.Dup(int(s)) }); err != nil {
		return err
	}
	if derr != nil {
		return os.NewSyscallError("dup", derr)
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return os.NewSyscallError("fcntl", err)
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(i)}
	if err := syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		syscall.Close(fd)
		return os.NewSyscallError("epoll_ctl", err)
	}
	c.fd, c.la, c.ra, c.in, c.eof = fd, nc.LocalAddr(), nc.RemoteAddr(), c.in[:0], false
	return nil
}

// write sends what is left of c's request; false when it failed (the
// result is recorded).
func (l *evloop) write(c *loopConn) bool {
	for c.sent < len(c.out) {
		n, err := rawWrite(c.fd, c.out[c.sent:])
		if n > 0 {
			c.sent += n
		}
		switch {
		case err == syscall.EINTR:
		case err == syscall.EAGAIN:
			// The socket's buffer is full: the rest when it is writable.
			ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLOUT, Fd: int32(c.i)}
			if err := syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_MOD, c.fd, &ev); err != nil {
				l.fail(c, os.NewSyscallError("epoll_ctl", err))
				return false
			}
			return true
		case err != nil:
			l.fail(c, &net.OpError{Op: "write", Net: "tcp", Source: c.la, Addr: c.ra, Err: os.NewSyscallError("write", err)})
			return false
		}
	}
	return true
}

// ready handles events on connection i.
func (l *evloop) ready(i int, events uint32) {
	c := l.cs[i]
	if c.fd < 0 {
		return
	}
	if !c.busy {
		l.closeConn(c) // closed by the server, or sent what nobody asked for
		return
	}
	if c.sent < len(c.out) && events&syscall.EPOLLOUT != 0 {
		if !l.write(c) {
			l.next(i)
			return
		}
		if c.sent == len(c.out) {
			ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(i)}
			_ = syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_MOD, c.fd, &ev)
		}
	}
	if events&(syscall.EPOLLIN|syscall.EPOLLERR|syscall.EPOLLHUP) == 0 {
		return
	}
	// An answer may come before the whole request went out (a server
	// refusing a large body): it is read all the same.
	if len(c.in) == cap(c.in) {
		c.in = append(c.in, 0)[:len(c.in)] // room for more
	}
	n, err := rawRead(c.fd, c.in[len(c.in):cap(c.in)])
	for err == syscall.EINTR {
		n, err = rawRead(c.fd, c.in[len(c.in):cap(c.in)])
	}
	switch {
	case err == syscall.EAGAIN:
		return
	case err != nil:
		l.fail(c, &net.OpError{Op: "read", Net: "tcp", Source: c.la, Addr: c.ra, Err: os.NewSyscallError("read", err)})
		l.next(i)
		return
	case n == 0:
		c.eof = true
	default:
		c.in = c.in[:len(c.in)+n]
	}
	if l.answer(c) {
		l.next(i)
	}
}

// fail records c's request as failed with err and closes its connection.
func (l *evloop) fail(c *loopConn, err error) {
	l.closeConn(c)
	c.r.Code = 0
	if _, ok := err.(*url.Error); !ok && c.r.URL != "" {
		err = &url.Error{Op: opName(c.tgt.Method), URL: c.tgt.URL, Err: err}
	}
	l.done(c, err)
}

// done hands c's result to the batch.
func (l *evloop) done(c *loopConn, err error) {
	r := &c.r
	if r.Latency == 0 { // unless answer measured it
		r.Latency = time.Since(r.Timestamp)
	}
	if err != nil {
		r.Error = err.Error()
	}
	l.w.batch = append(l.w.batch, *r)
	c.busy, c.r = false, vegeta.Result{}
	l.busy--
	if len(l.w.batch) == cap(l.w.batch) {
		l.w.flush()
	}
}

// closeConn closes c's socket (closing it leaves the epoll set).
func (l *evloop) closeConn(c *loopConn) {
	if c.fd >= 0 {
		_ = syscall.Close(c.fd)
		c.fd = -1
	}
	c.in, c.eof = c.in[:0], false
}
