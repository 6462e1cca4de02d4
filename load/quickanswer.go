//go:build linux

package load

import (
	"bytes"
	"net/http"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// quickHead bounds the head quickAnswer reads: far below the reader's
// buffer, whose size bounds a header line in readAnswer.
const quickHead = 4096

// quick is what quickAnswer made of the bytes received.
type quick int

const (
	quickNo      quick = iota // not the common answer: readAnswer reads it
	quickPending              // the common answer, not all of it arrived yet
	quickDone                 // read: the result is filled in
)

// quickAnswer reads the common answer at max rate from in, the bytes
// received so far, without copying them or going through bufio: HTTP/1.1,
// a 2xx code (a body allowed), a Content-Length, no Transfer-Encoding,
// lines ended by CRLF. It fills r as readAnswer would and returns how many
// bytes of in the answer took; anything else is quickNo and goes to
// readAnswer, which judges it (a test holds the two to the same results).
func quickAnswer(in []byte, method string, r *vegeta.Result) (a answer, used int, q quick) {
	end := bytes.Index(in, []byte("\r\n\r\n"))
	if end < 0 {
		return a, 0, quickNo // readAnswer tells an incomplete head from a malformed one
	}
	if end+4 > quickHead || method == http.MethodHead {
		return a, 0, quickNo
	}
	head := in[:end+2] // each line with its CRLF
	// "HTTP/1.1 2xx" then a space or the line's end; 204 has no body.
	if len(head) < 14 || string(head[:9]) != "HTTP/1.1 " || head[9] != '2' ||
		head[10] < '0' || head[10] > '9' || head[11] < '0' || head[11] > '9' || (head[12] != ' ' && head[12] != '\r') {
		return a, 0, quickNo
	}
	code := 200 + int(head[10]-'0')*10 + int(head[11]-'0')
	if code == http.StatusNoContent {
		return a, 0, quickNo
	}
	i := bytes.IndexByte(head, '\n')
	if i < 0 || head[i-1] != '\r' || bytes.IndexByte(head[:i-1], '\r') >= 0 {
		return a, 0, quickNo
	}
	length := int64(-1)
	for rest := head[i+1:]; len(rest) > 0; {
		j := bytes.IndexByte(rest, '\n')
		if j < 1 || rest[j-1] != '\r' {
			return a, 0, quickNo
		}
		line := rest[:j-1]
		rest = rest[j+1:]
		if bytes.IndexByte(line, '\r') >= 0 {
			return a, 0, quickNo
		}
		k := bytes.IndexByte(line, ':')
		if k <= 0 {
			return a, 0, quickNo
		}
		name, v := line[:k], bytes.TrimSpace(line[k+1:])
		switch {
		case len(name) == 14 && bytes.EqualFold(name, []byte("Content-Length")):
			if len(v) == 0 || len(v) > 18 {
				return a, 0, quickNo
			}
			n := int64(0)
			for _, d := range v {
				if d < '0' || d > '9' {
					return a, 0, quickNo
				}
				n = n*10 + int64(d-'0')
			}
			length = n
		case len(name) == 17 && bytes.EqualFold(name, []byte("Transfer-Encoding")):
			return a, 0, quickNo
		case len(name) == 10 && bytes.EqualFold(name, []byte("Connection")):
			if bytes.EqualFold(v, []byte("close")) {
				a.close = true
			}
		}
	}
	if length < 0 {
		return a, 0, quickNo
	}
	total := int64(end+4) + length
	if int64(len(in)) < total {
		return a, 0, quickPending
	}
	r.Code = uint16(code)
	r.BytesIn = uint64(min(length, maxErrorBody))
	return a, int(total), quickDone
}
