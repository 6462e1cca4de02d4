//go:build linux

package load

import (
	"bufio"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// slowAnswer reads in through readAnswer as the loop does (a reader that
// says errPending at the end of what arrived) and returns how many bytes
// the answer took.
func slowAnswer(in []byte, method string, r *vegeta.Result) (answer, int, error) {
	src := &sliceReader{b: in}
	br := bufio.NewReaderSize(src, 16<<10)
	a, err := readAnswer(br, method, r)
	return a, len(in) - len(src.b) - br.Buffered(), err
}

type sliceReader struct{ b []byte }

func (s *sliceReader) Read(p []byte) (int, error) {
	if len(s.b) == 0 {
		return 0, errPending
	}
	n := copy(p, s.b)
	s.b = s.b[n:]
	return n, nil
}

// Whatever quickAnswer reads, readAnswer reads the same way: the same
// code, bytes in, connection's fate and length; what it leaves
// (quickNo) readAnswer judges; what it finds incomplete readAnswer finds
// incomplete too. Answers are drawn at random from the pieces that tell
// them apart (codes, versions, header names' case, spaces and tabs,
// stray CR or LF, lengths, signs, chunking, a second answer behind).
func TestQuickAnswerAgreesWithReadAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 28))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	// vary is usually the common form, else one of its variants: most
	// answers differ from the common one in a piece or two.
	vary := func(common string, variants ...string) string {
		if rng.IntN(8) != 0 {
			return common
		}
		return pick(variants...)
	}
	quickRead := 0
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		b.WriteString(vary("HTTP/1.1 ", "HTTP/1.0 ", "HTTP/1.2 ", "HTTP/1.1  ", "http/1.1 "))
		b.WriteString(vary("200", "201", "204", "299", "302", "404", "500", "2x0", "099", "100"))
		b.WriteString(vary(" OK\r\n", "\r\n", " OK\r\r\n", " OK\n", " Fine Thanks\r\n", "X\r\n"))
		body := pick("", "ok", `{"BTC":{}}`, strings.Repeat("x", 1500))
		b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
		for h := rng.IntN(5); h > 0; h-- {
			switch rng.IntN(8) {
			case 0, 1:
				b.WriteString(pick("Content-Length", "content-length", "CONTENT-LENGTH", "Content-Length ", "Content-Lengthy"))
				b.WriteString(":")
				b.WriteString(pick("", " ", "\t", "  "))
				l := len(body)
				b.WriteString(pick(strconv.Itoa(l), strconv.Itoa(l), "+"+strconv.Itoa(l), "-1", strconv.Itoa(l+1), "0"+strconv.Itoa(l), "x", "", "99999999999999999999"))
				b.WriteString(pick("", " ", "\t", "\v", "\r"))
			case 2:
				b.WriteString(pick("Connection: close", "connection:CLOSE", "Connection: keep-alive", "Connection:\vclose", "Connection: close, x"))
			case 3:
				b.WriteString(pick("Transfer-Encoding: chunked", "transfer-encoding: gzip"))
			case 4:
				b.WriteString(pick("Location: http://elsewhere/", "Content-Type: application/json", "Date: Sun, 29 Nov 2026 01:00:00 GMT"))
			case 5:
				b.WriteString(pick(": no name", "no colon", "X-Long: "+strings.Repeat("y", 5000)))
			default:
				b.WriteString(pick("Server: conform", "X-A:b"))
			}
			b.WriteString(vary("\r\n", "\n", "\r\r\n"))
		}
		b.WriteString(vary("\r\n", "\n"))
		b.WriteString(body)
		b.WriteString(pick("", "", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
		full := []byte(b.String())
		cut := full
		if rng.IntN(4) == 0 {
			cut = full[:rng.IntN(len(full)+1)]
		}
		method := pick("GET", "GET", "POST", "HEAD")
		var qr, sr vegeta.Result
		qa, qused, q := quickAnswer(cut, method, &qr)
		sa, sused, serr := slowAnswer(cut, method, &sr)
		switch q {
		case quickDone:
			quickRead++
			if serr != nil || qr.Code != sr.Code || qr.BytesIn != sr.BytesIn || qa != sa || qused != sused || qr.Error != sr.Error || sr.Headers != nil {
				t.Fatalf("%q (%s): quick %+v %+v used %d; readAnswer %+v %+v used %d err %v", cut, method, qa, qr, qused, sa, sr, sused, serr)
			}
		case quickPending:
			if !errors.Is(serr, errPending) {
				t.Fatalf("%q (%s): quick pending; readAnswer %+v %+v err %v", cut, method, sa, sr, serr)
			}
		case quickNo:
			if qr.Code != 0 || qr.BytesIn != 0 || qused != 0 {
				t.Fatalf("%q: quickNo touched the result: %+v", cut, qr)
			}
		}
	}
	if quickRead < 1000 {
		t.Errorf("only %d answers read quickly: the draw misses the common case", quickRead)
	}
}
