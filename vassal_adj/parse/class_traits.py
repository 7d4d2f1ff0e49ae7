"""Traits typed by class only: VASSAL-FORMATS.md gives no field layout to rely on, so each is
a field-less `Trait` subclass registered for its prefix, its fields kept raw (and written back
byte for byte). A report can still say which traits a piece has ("Movement Trail").
parse/traits.py imports this module, so `make_trait` knows these prefixes wherever traits are read.
"""

from __future__ import annotations

from vassal_adj.parse.trait_types import Trait


def _kind(name: str, prefix: str, editor: str) -> type[Trait]:
    """A field-less Trait subclass registered for `prefix` (the dataclass methods are inherited)."""
    doc = f"``{prefix}`` {editor}: typed by class only; its fields are kept raw."
    return type(
        name, (Trait,), {"__module__": __name__, "__qualname__": name, "__doc__": doc}, prefix=prefix, editor=editor
    )  # type: ignore[call-arg]


Immobilized = _kind("Immobilized", "immob;", "Does Not Stack")
TableInfo = _kind("TableInfo", "table;", "Spreadsheet")
Pivot = _kind("Pivot", "pivot;", "Can Pivot")
NonRectangular = _kind("NonRectangular", "nonRect2;", "Non-Rectangular")
LegacyNonRectangular = _kind("LegacyNonRectangular", "nonRect;", "Non-Rectangular (legacy)")
Restricted = _kind("Restricted", "restrict;", "Restricted Access")
PlaceMarker = _kind("PlaceMarker", "placemark;", "Place Marker")
Replace = _kind("Replace", "replace;", "Replace with Other")
ReportState = _kind("ReportState", "report;", "Report Action")
Footprint = _kind("Footprint", "footprint;", "Movement Trail")
ReturnToDeck = _kind("ReturnToDeck", "return;", "Return to Deck")
SendToLocation = _kind("SendToLocation", "sendto;", "Send to Location")
Clone = _kind("Clone", "clone;", "Clone")
Delete = _kind("Delete", "delete;", "Delete")
SubMenu = _kind("SubMenu", "submenu;", "Sub-Menu")
MenuSeparator = _kind("MenuSeparator", "menuSeparator;", "Menu Separator")
Translate = _kind("Translate", "translate;", "Move Fixed Distance")
AreaOfEffect = _kind("AreaOfEffect", "AreaOfEffect;", "Area of Effect")
GlobalKeyCommand = _kind("GlobalKeyCommand", "globalkey;", "Global Key Command")
TriggerAction = _kind("TriggerAction", "macro;", "Trigger Action")
SetGlobalProperty = _kind("SetGlobalProperty", "setprop;", "Set Global Property")
RestrictCommands = _kind("RestrictCommands", "hideCmd;", "Restrict Commands")
PlaySound = _kind("PlaySound", "playSound;", "Play Sound")
ActionButton = _kind("ActionButton", "button;", "Action Button")
GlobalHotkey = _kind("GlobalHotkey", "globalhotkey;", "Global Hotkey")
Deselect = _kind("Deselect", "deselect;", "Deselect")
Mat = _kind("Mat", "mat;", "Mat")
MatCargo = _kind("MatCargo", "matPiece;", "Mat Cargo")
Border = _kind("Border", "border;", "Border Outline")  # 3.7: drawing only, nothing to read


__all__ = [c.__name__ for c in Trait.__subclasses__() if c.__module__ == __name__]
