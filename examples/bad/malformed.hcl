# Mistake: the switch block's closing brace is missing.
fabric "bad" {}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1-2" {
    speed = "25G"
    mtu   = 9216
  }

host "gpu1" {
  os = "linux"
}
