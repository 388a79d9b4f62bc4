# Mistake: EOS takes a PFC watchdog timeout of 0.01-60 s in steps of 0.01 s; 5 ms is below it (nearest: 10 ms).
fabric "bad" {}

qos {
  profile = "nvidia-roce"

  pfc_watchdog {
    timeout_ms = 5
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "eos"
  model    = "7050CX3-32S"

  port "Ethernet1/1" {
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
  a      = "leaf1:Ethernet1/1"
  b      = "gpu1:roce0"
  length = 3
}
