# Mistake: a 2000 m link says cable = "aoc"; active optical cables reach
# 100 m (a warning: it is fibre between transceivers, or the length is wrong).
fabric "bad" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp49" {
    speed = "100G"
    vlans = [100]
  }
}

switch "spine1" {
  platform = "cumulus"
  model    = "SN2700"

  port "swp1" {
    speed = "100G"
    vlans = [100]
  }
}

link {
  a      = "leaf1:swp49"
  b      = "spine1:swp1"
  length = 2000
  cable  = "aoc"
}
