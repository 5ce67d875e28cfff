"""The games of tutto-sim: one line per game (``core.registry``)."""

from tutto_sim.core.registry import register
from tutto_sim.macke.entry import ENTRY as MACKE
from tutto_sim.rutsmieter.entry import ENTRY as RUTSMIETER
from tutto_sim.tutti.entry import ENTRY as TUTTI
from tutto_sim.tutto.entry import ENTRY as TUTTO

register(TUTTO)
register(MACKE)
register(RUTSMIETER)
register(TUTTI)
