package inventory

import "os"

// AgentSocket is where the ssh-agent listens: SSH_AUTH_SOCK, or, when
// that is not set, the platform's default (defaultAgentSocket: the
// named pipe of OpenSSH for Windows; none on Unix, where ssh-agent(1)
// only sets the variable). "" when there is none.
func AgentSocket() string {
	if s := os.Getenv("SSH_AUTH_SOCK"); s != "" {
		return s
	}
	return defaultAgentSocket
}
