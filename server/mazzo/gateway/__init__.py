"""The gateway bots dial in to (``mazzo.v1.Tables/Join``): one outbound stream per bot
takes the seats of its name, so a bot behind NAT or a firewall can play. It serves the
referee (``connect:NAME`` seats) and knows nothing of matches beyond the decisions it
carries: hellos and tokens (``tokens``), connections, their limits and the pending
decisions of each name (``server``).
"""
