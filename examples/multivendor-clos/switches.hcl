# Spines: Arista 7050CX3-32S (Broadcom Trident3, 32 x 100GbE); the first
# four ports face the leaves, as routed links.
dynamic "switch" {
  for_each = local.spines
  iterator = spine
  labels   = [spine.key]
  content {
    platform   = "eos"
    model      = "7050CX3-32S"
    os_version = "4.32.2F"

    dynamic "port" {
      for_each = local.leaves
      labels   = [format("Ethernet%d/1", port.value.rack)]
      content {
        speed       = "100G"
        mtu         = 9214 # EOS's largest (IP) MTU
        mode        = "routed"
        description = format("to %s", port.key)
      }
    }

    # The spine-to-spine trunks (see links.hcl): every rack VLAN tagged,
    # once without and once with an untagged (native) VLAN.
    port "Ethernet5/1" {
      speed = "100G"
      mtu   = 9214
      mode  = "trunk"
      vlans = local.rack_vlans
    }

    port "Ethernet6/1" {
      speed       = "100G"
      mtu         = 9214
      mode        = "trunk"
      vlans       = local.rack_vlans
      native_vlan = local.rack_vlans[0]
    }
  }
}

# Leaves: SN2700 (Spectrum, 32 x 100GbE) running Cumulus Linux or Onyx.
# Host ports are access ports in the rack's VLAN; ports 7 and 8 are
# trunks to another leaf; the last two ports are routed uplinks, one to
# each spine.
dynamic "switch" {
  for_each = local.leaves
  iterator = leaf
  labels   = [leaf.key]
  content {
    platform   = leaf.value.platform
    model      = leaf.value.model
    os_version = leaf.value.os

    # Block labels are literal strings in HCL, so port ranges built from
    # the leaf's naming come through dynamic blocks.
    dynamic "port" {
      for_each = [format(leaf.value.range, 1, var.hosts_per_leaf)]
      labels   = [port.value]
      content {
        speed = "100G"
        mtu   = 9216
        mode  = "access"
        vlans = [100 + leaf.value.rack]
      }
    }

    # Leaf-to-leaf trunks carrying every rack VLAN (see links.hcl): port
    # 7 tagged only, port 8 with the leaf's own rack VLAN untagged.
    dynamic "port" {
      for_each = [format(leaf.value.port, 7)]
      labels   = [port.value]
      content {
        speed = "100G"
        mtu   = 9216
        mode  = "trunk"
        vlans = local.rack_vlans
      }
    }

    dynamic "port" {
      for_each = [format(leaf.value.port, 8)]
      labels   = [port.value]
      content {
        speed       = "100G"
        mtu         = 9216
        mode        = "trunk"
        vlans       = local.rack_vlans
        native_vlan = local.native_vlans[leaf.key]
      }
    }

    dynamic "port" {
      for_each = [format(leaf.value.range, 31, 32)]
      labels   = [port.value]
      content {
        speed = "100G"
        mtu   = 9214 # equal to the EOS spines' maximum
        mode  = "routed"
      }
    }
  }
}
