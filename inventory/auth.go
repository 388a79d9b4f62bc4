package inventory

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Kinds of credential source.
const (
	AuthPasswordEnv  = "password_env"
	AuthPasswordFile = "password_file"
	AuthPrivateKey   = "private_key"
	AuthAgent        = "agent"
)

// AuthSource says where a device's secret comes from. It holds names and
// paths, never the secret itself.
type AuthSource struct {
	// Kind is one of AuthPasswordEnv, AuthPasswordFile, AuthPrivateKey,
	// AuthAgent.
	Kind string
	// Ref is the environment variable name or the file path.
	Ref string
	// PassphraseEnv / PassphraseFile give the passphrase of a protected
	// private key.
	PassphraseEnv  string
	PassphraseFile string
	// EnableEnv / EnableFile give the password `enable` asks for (EOS,
	// Onyx); empty when the login lands in enable mode or asks none.
	EnableEnv  string
	EnableFile string
}

// Describe says where the secret comes from, for messages.
func (a AuthSource) Describe() string {
	switch a.Kind {
	case AuthPasswordEnv:
		return "password from environment variable " + a.Ref
	case AuthPasswordFile:
		return "password from file " + a.Ref
	case AuthPrivateKey:
		return "private key " + a.Ref
	case AuthAgent:
		return "ssh-agent"
	}
	return "no credentials"
}

// authFrom reads the credential attributes of one block. At most one
// primary source may be set.
func authFrom(dir string, ds *deviceSchema) (AuthSource, error) {
	var set []AuthSource
	if ds.PasswordEnv != nil {
		set = append(set, AuthSource{Kind: AuthPasswordEnv, Ref: *ds.PasswordEnv})
	}
	if ds.PasswordFile != nil {
		set = append(set, AuthSource{Kind: AuthPasswordFile, Ref: resolve(dir, *ds.PasswordFile)})
	}
	if ds.PrivateKey != nil {
		a := AuthSource{Kind: AuthPrivateKey, Ref: resolve(dir, *ds.PrivateKey)}
		if ds.PassphraseEnv != nil {
			a.PassphraseEnv = *ds.PassphraseEnv
		}
		if ds.PassphraseFile != nil {
			a.PassphraseFile = resolve(dir, *ds.PassphraseFile)
		}
		set = append(set, a)
	} else if ds.PassphraseEnv != nil || ds.PassphraseFile != nil {
		return AuthSource{}, errors.New("passphrase_env/passphrase_file need private_key in the same block")
	}
	if ds.Agent != nil && *ds.Agent {
		set = append(set, AuthSource{Kind: AuthAgent})
	}
	if len(set) > 1 {
		var kinds []string
		for _, a := range set {
			kinds = append(kinds, a.Kind)
		}
		return AuthSource{}, fmt.Errorf("%s are all set; keep exactly one", strings.Join(kinds, ", "))
	}
	if len(set) == 0 {
		return AuthSource{}, nil
	}
	return set[0], nil
}

// Credentials is what the SSH client needs to log in.
type Credentials struct {
	Username string
	Password Secret
	// KeyPEM is the private key file's content, with Passphrase when it
	// is protected. A Secret, so an unprotected key never prints either.
	KeyPEM     Secret
	Passphrase Secret
	Agent      bool
	// Enable answers the `enable` password prompt; empty for none.
	Enable Secret
}

// Credentials reads the device's secret from its source. Errors name the
// source (variable or file), never the value.
func (d *Device) Credentials() (Credentials, error) {
	c := Credentials{Username: d.Username}
	a := d.Auth
	switch a.Kind {
	case AuthPasswordEnv:
		v, ok := os.LookupEnv(a.Ref)
		if !ok || v == "" {
			return c, fmt.Errorf("device %s: environment variable %s is not set; export it with the login password", d.Name, a.Ref)
		}
		c.Password = NewSecret(v)
	case AuthPasswordFile:
		v, err := readSecretFile(a.Ref)
		if err != nil {
			return c, fmt.Errorf("device %s: password file: %w", d.Name, err)
		}
		c.Password = NewSecret(v)
	case AuthPrivateKey:
		pem, err := readSecret(a.Ref)
		if err != nil {
			return c, fmt.Errorf("device %s: private key: %w", d.Name, err)
		}
		c.KeyPEM = NewSecret(string(pem))
		if c.Passphrase, err = optionalSecret("passphrase", a.PassphraseEnv, a.PassphraseFile); err != nil {
			return c, fmt.Errorf("device %s: %w", d.Name, err)
		}
	case AuthAgent:
		if AgentSocket() == "" {
			return c, fmt.Errorf("device %s: agent = true but SSH_AUTH_SOCK is not set; start ssh-agent and add the key", d.Name)
		}
		c.Agent = true
	default:
		return c, fmt.Errorf("device %s: no credential source; set password_env, password_file, private_key or agent", d.Name)
	}
	var err error
	if c.Enable, err = optionalSecret("enable password", a.EnableEnv, a.EnableFile); err != nil {
		return c, fmt.Errorf("device %s: %w", d.Name, err)
	}
	return c, nil
}

// optionalSecret reads a secret given by an environment variable or a
// file (the key passphrase, the enable password); empty when neither is
// set. what names the secret in errors, which never hold its value.
func optionalSecret(what, env, file string) (Secret, error) {
	switch {
	case env != "":
		v, ok := os.LookupEnv(env)
		if !ok {
			return Secret{}, fmt.Errorf("%s variable %s is not set", what, env)
		}
		return NewSecret(v), nil
	case file != "":
		v, err := readSecretFile(file)
		if err != nil {
			return Secret{}, fmt.Errorf("%s file: %w", what, err)
		}
		return NewSecret(v), nil
	}
	return Secret{}, nil
}

// maxSecretBytes bounds a secret file: a password, passphrase or private
// key (an 8192-bit RSA key in PEM is about 6.5 KB).
const maxSecretBytes = 64 << 10

// readSecretFile reads a one-line secret file, dropping the trailing
// newline (see readSecret for what is refused).
func readSecretFile(path string) (string, error) {
	b, err := readSecret(path)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

// readSecret reads a secret file: a password file or a private key. Like
// ssh for private keys ("UNPROTECTED PRIVATE KEY FILE!", ssh(1) FILES:
// "must not be accessible by others"), a file readable or writable by
// group or others is refused; so is anything but a regular file (a FIFO
// or a device such as /dev/zero would block or never end) and a file
// above maxSecretBytes. The file is checked on the descriptor it is read
// from.
func readSecret(path string) ([]byte, error) {
	path = ExpandHome(path)
	// Stat before opening: opening a FIFO blocks until a writer comes.
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkSecretFile(path, st); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkSecretFile(path, st); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSecretBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSecretBytes {
		return nil, fmt.Errorf("%s grew past %d bytes while being read", path, maxSecretBytes)
	}
	return b, nil
}

// checkSecretFile refuses what readSecret must not read. Who may read
// the file is checked the platform's way (checkSecretAccess): the mode
// bits on Unix, the access control list on Windows, where Go makes the
// mode up from the read-only attribute alone.
func checkSecretFile(path string, st os.FileInfo) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s); give the file that holds the secret", path, st.Mode().Type())
	}
	if err := checkSecretAccess(path, st); err != nil {
		return err
	}
	if st.Size() > maxSecretBytes {
		return fmt.Errorf("%s is %d bytes; a secret file holds at most %d", path, st.Size(), maxSecretBytes)
	}
	return nil
}

// looseModeError is the refusal of a secret file whose mode lets group
// or others in. blocked says why chmod cannot fix it for this process
// ("" when it can): a Kubernetes Secret volume is a read-only tmpfs
// whose files get the volume's defaultMode, 0644 unless set (Kubernetes
// documentation, "Secrets", "Using Secrets as files from a Pod"), so the
// fix is in the pod spec, or in not using a file.
func looseModeError(path string, perm os.FileMode, blocked string) error {
	if blocked == "" {
		return fmt.Errorf("%s is readable by its group or others (mode %04o); run chmod 600 %s", path, perm, path)
	}
	return fmt.Errorf("%s is readable by its group or others (mode %04o) and chmod cannot change that here: %s. "+
		"If it is a mounted secret, mount it with mode 0400 or 0600 (Kubernetes: defaultMode: 0400 on the secret volume); "+
		"or give the secret in an environment variable instead (password_env, passphrase_env, enable_password_env)", path, perm, blocked)
}

// ExpandHome expands a leading "~/" in a path from the inventory.
func ExpandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}
