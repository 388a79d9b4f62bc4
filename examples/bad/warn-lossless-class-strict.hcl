# Mistake: the lossless class "compute" is strict: PFC keeps it backlogged
# and a strict class is served first, so it can starve "storage",
# "cluster" and "default", which have bandwidth shares.
fabric "bad" {}

qos {
  profile    = "none"
  roce_class = "storage"
  cnp_class  = "cnp"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts

  class "default" {
    priority  = 0
    dscp      = [0]
    default   = true
    bandwidth = 49
  }

  class "storage" {
    priority  = 3
    dscp      = [26]
    lossless  = true
    bandwidth = 50

    ecn {
      min = "150KB"
      max = "1500KB"
    }
  }

  class "compute" {
    priority = 4
    dscp     = [34]
    lossless = true
    strict   = true

    ecn {
      min = "150KB"
      max = "1500KB"
    }
  }

  class "cnp" {
    priority = 6
    dscp     = [48]
    strict   = true
  }

  class "cluster" {
    priority  = 7
    dscp      = [56]
    bandwidth = 1
  }
}

vlan "storage" {
  id = 10
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    vlans = [10]
  }
}

host "nvmet1" {
  os = "linux"

  nic "rdma0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    vlan      = 10
    addresses = ["10.10.0.21/24"]
    class     = "storage"
  }
}

link {
  a      = "leaf1:swp1"
  b      = "nvmet1:rdma0"
  length = 2
}
