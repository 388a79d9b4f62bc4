//go:build !windows

package transport

import (
	"net"
	"time"
)

// dialAgent connects to the ssh-agent's Unix socket (SSH_AUTH_SOCK,
// ssh-agent(1)).
func dialAgent(sock string, timeout time.Duration) (net.Conn, error) {
	return net.DialTimeout("unix", sock, timeout)
}
