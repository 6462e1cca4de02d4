package target

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
)

// TLS returns the TLS configuration of every connection the harness makes
// to the target: the system's roots (SSL_CERT_FILE and SSL_CERT_DIR still
// apply) and the certificates of CAFile. It is nil without a CAFile, which
// every Go client reads as the system's roots alone. Callers must not
// change it (Clone it to set ServerName).
func (c *Config) TLS() (*tls.Config, error) {
	if c.CAFile == "" {
		return nil, nil
	}
	b, err := os.ReadFile(c.CAFile)
	if err != nil {
		return nil, fmt.Errorf("ca_file: %w", err)
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool() // no system store here: the private CA alone
	}
	if !roots.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("ca_file %s: no PEM certificate in it (want the CA's certificate, -----BEGIN CERTIFICATE-----)", c.CAFile)
	}
	return &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}, nil
}

// CheckTLS makes a TLS handshake with the host of an https or wss URL, as
// every client of the run will, so that a certificate the harness would
// refuse is one line naming the problem and its fix before any spec runs
// instead of every spec failing. Other schemes are not checked.
func CheckTLS(ctx context.Context, raw string, conf *tls.Config, dial Dialer) error {
	u, err := url.Parse(raw)
	if err != nil {
		return &ErrBadURL{Err: fmt.Errorf("target %q: %w", raw, err)}
	}
	if u.Scheme != "https" && u.Scheme != "wss" {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = "443"
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	raw = strings.TrimRight(raw, "/")
	conn, err := dial(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("target %s unreachable: %w", raw, err)
	}
	defer conn.Close()
	cfg := &tls.Config{}
	if conf != nil {
		cfg = conf.Clone()
	}
	cfg.ServerName = u.Hostname()
	tc := tls.Client(conn, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		return tlsProblem(raw, u.Hostname(), err)
	}
	return tc.Close()
}

// tlsProblem says in one line why a handshake failed and what fixes it.
func tlsProblem(target, host string, err error) error {
	var (
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		record   tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &unknown):
		subject := "the certificate"
		if unknown.Cert != nil {
			subject = fmt.Sprintf("the certificate of %q, issued by %q,", unknown.Cert.Subject.CommonName, unknown.Cert.Issuer.CommonName)
		}
		return fmt.Errorf("target %s: %s is signed by an authority this machine does not trust: give the sandbox's CA certificate with --ca-file FILE (ca_file in the target config)", target, subject)
	case errors.As(err, &hostname):
		names := "no name"
		if c := hostname.Certificate; c != nil {
			all := append(append([]string(nil), c.DNSNames...), ipStrings(c.IPAddresses)...)
			if len(all) > 0 {
				names = strings.Join(all, ", ")
			}
		}
		return fmt.Errorf("target %s: its TLS certificate is for %s, not %s: aim the target at a host the certificate names, or give with --ca-file the CA of a certificate for %s", target, names, host, host)
	case errors.As(err, &invalid):
		return fmt.Errorf("target %s: its TLS certificate is not valid (%v): renew it, or give with --ca-file the CA of a valid one", target, invalid)
	case errors.As(err, &record):
		return fmt.Errorf("target %s does not speak TLS on that port (an http:// target?): use the scheme the target serves", target)
	}
	return fmt.Errorf("target %s: TLS handshake failed: %v", target, oneLine(err.Error()))
}

func ipStrings(ips []net.IP) []string {
	out := make([]string, len(ips))
	for i, ip := range ips {
		out[i] = ip.String()
	}
	return out
}

// oneLine keeps an error message on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
