//go:build windows

package transport

import (
	"net"
	"strings"
	"time"

	"github.com/Microsoft/go-winio"
)

// dialAgent connects to the ssh-agent. OpenSSH for Windows serves it on
// the named pipe \\.\pipe\openssh-ssh-agent (inventory.AgentSocket's
// default; Win32-OpenSSH wiki, "ssh-agent"), which net.Dial cannot open:
// go-winio's DialPipe does, waiting while every pipe instance is busy.
// A SSH_AUTH_SOCK that is no pipe is dialled as an AF_UNIX socket, which
// Windows 10 1803 and later have.
func dialAgent(sock string, timeout time.Duration) (net.Conn, error) {
	if strings.HasPrefix(sock, `\\.\pipe\`) {
		return winio.DialPipe(sock, &timeout)
	}
	return net.DialTimeout("unix", sock, timeout)
}
