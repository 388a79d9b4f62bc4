//go:build windows

package inventory

// defaultAgentSocket is the pipe the ssh-agent service of OpenSSH for
// Windows listens on, which its ssh uses when SSH_AUTH_SOCK is not set.
const defaultAgentSocket = `\\.\pipe\openssh-ssh-agent`
