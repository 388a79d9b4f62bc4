# The fabric of TestLabConfigRehearsal: one Cumulus, one Onyx and one EOS
# switch, each with a trunk, for rehearsing a migration in the lab.
fabric "rehearse" {
  description = "A Cumulus, an Onyx and an EOS switch, each with a trunk"
}

qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 10
}

switch "leaf1" {
  platform   = "cumulus"
  model      = "SN2700"
  os_version = "5.9.2"

  port "swp1" {
    speed = "100G"
    mode  = "access"
    vlans = [10]
  }

  port "swp31" {
    speed = "100G"
    mode  = "trunk"
    vlans = [10]
  }
}

switch "leaf2" {
  platform   = "onyx"
  model      = "SN2700"
  os_version = "3.10.4206"

  port "1/1" {
    speed = "100G"
    mode  = "access"
    vlans = [10]
  }

  port "1/31" {
    speed = "100G"
    mode  = "trunk"
    vlans = [10]
  }

  port "1/32" {
    speed = "100G"
    mode  = "trunk"
    vlans = [10]
  }
}

switch "spine1" {
  platform   = "eos"
  model      = "7050CX3-32S"
  os_version = "4.32.2F"

  port "Ethernet1/1" {
    speed = "100G"
    mode  = "trunk"
    vlans = [10]
  }
}

host "node1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.0.10.11/24"]
  }
}

host "node2" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.0.10.12/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "node1:roce0"
  length = 2
}

link {
  a      = "leaf2:1/1"
  b      = "node2:roce0"
  length = 2
}

link {
  a      = "leaf1:swp31"
  b      = "leaf2:1/31"
  length = 5
}

link {
  a      = "leaf2:1/32"
  b      = "spine1:Ethernet1/1"
  length = 5
}
