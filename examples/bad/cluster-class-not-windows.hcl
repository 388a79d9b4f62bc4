# Mistake: cluster_class on a Linux host. It names the class of a Windows
# failover cluster's heartbeat (the New-NetQosPolicy -Cluster policy),
# which only the Windows script writes.
fabric "bad" {}

qos {
  profile = "nvidia-roce"

  class "default" {
    bandwidth = 48
  }

  class "cluster" {
    priority  = 7
    dscp      = [56, 57, 58, 59, 60, 61, 62, 63]
    bandwidth = 2
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    vlans = [100]
  }
}

host "stor1" {
  os            = "linux"
  cluster_class = "cluster"

  nic "roce0" {
    model     = "ConnectX-4 Lx"
    interface = "ens1f0"
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "stor1:roce0"
  length = 3
}
