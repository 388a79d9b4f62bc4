# Mistake: NVUE takes a PFC watchdog polling interval of 100-5000 ms; 20 ms is refused at push time (nearest: 100 ms).
fabric "bad" {}

qos {
  profile = "nvidia-roce"

  pfc_watchdog {
    polling_ms = 20
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2700"

  port "swp1" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100]
    trust = "dscp"
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0"
    speed     = "100G"
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
