# Mistake: a port label computed with ${...}. A block label is a plain
# string; a dynamic "port" block computes its labels. The label with two
# template sequences is one error.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

locals {
  first_uplink = 31
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2700"

  port "swp${local.first_uplink}-${local.first_uplink + 1}" {
    speed = "100G"
    mode  = "routed"
  }
}
