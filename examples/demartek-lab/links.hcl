# Cables in the lab: passive copper (DAC) between servers and the switch
# in the same rack, lengths as measured.
link {
  a      = "sn2410:1/1"
  b      = "fc-node1:port1"
  length = 1
  cable  = "dac"
}

link {
  a      = "sn2410:1/2"
  b      = "fc-node1:port2"
  length = 1
  cable  = "dac"
}

link {
  a      = "sn2410:1/3"
  b      = "fc-node2:port1"
  length = 2
  cable  = "dac"
}

link {
  a      = "sn2410:1/4"
  b      = "fc-node2:port2"
  length = 2
  cable  = "dac"
}

link {
  a      = "sn2410:1/5"
  b      = "iser-initiator:roce0"
  length = 3
  cable  = "dac"
}

link {
  a      = "sn2410:1/49"
  b      = "win-client:roce0"
  length = 3
  cable  = "dac"
}

link {
  a      = "sn2410:1/50"
  b      = "iser-target:roce0"
  length = 5
  cable  = "dac"
}
