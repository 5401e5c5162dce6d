
func.func @unix_without_path() {
  // expected-error @+1 {{'executor.open' op address "unix:" has no socket path; write it as unix:PATH, e.g. "unix:/run/user/1000/executor.sock"}}
  %s = executor.open("unix:") : !executor.session
  return
}

