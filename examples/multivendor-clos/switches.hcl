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
  }
}

# Leaves: SN2700 (Spectrum, 32 x 100GbE) running Cumulus Linux or Onyx.
# Host ports are access ports in the rack's VLAN; the last two ports are
# routed uplinks, one to each spine.
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
