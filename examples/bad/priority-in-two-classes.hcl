# Mistake: class "storage" takes priority 3, the profile's roce priority.
# Its traffic_class is not written, so it is its priority: one error for
# the priority, which names the free ones, and none for the shared queue
# that follows from it.
fabric "bad" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1-4" {
    speed = "25G"
    vlans = [100]
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}

qos {
  profile = "nvidia-roce"

  class "storage" {
    priority = 3
    dscp     = [34]
    strict   = true
  }
}
