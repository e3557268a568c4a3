"""Role ids, teams, and the names and descriptions players read (as message ids)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.i18n import N_


class Role(StrEnum):
    DON = "don"
    MAFIA = "mafia"
    LAWYER = "lawyer"
    DOCTOR = "doctor"
    COMMISSAR = "commissar"
    SERGEANT = "sergeant"
    LOVER = "lover"
    HOBO = "hobo"
    KAMIKAZE = "kamikaze"
    WEREWOLF = "werewolf"
    KILLER = "killer"
    CIVILIAN = "civilian"
    COURTESAN = "courtesan"
    MANIAC = "maniac"


class Team(StrEnum):
    MAFIA = "mafia"
    TOWN = "town"
    KILLER = "killer"
    BLACK = "black"
    RED = "red"


@dataclass(frozen=True, slots=True)
class RoleInfo:
    role: Role
    team: Team
    name: str
    description: str


UZ_ROLES: dict[Role, RoleInfo] = {
    info.role: info
    for info in (
        RoleInfo(Role.DON, Team.MAFIA, N_("Don"), N_(
            "Leads the mafia. Each night you choose whom the mafia kills; your team sees your choice. "
            "The commissar's check shows you as peaceful.")),
        RoleInfo(Role.MAFIA, Team.MAFIA, N_("Mafia"), N_(
            "You kill with the don each night: suggest a target in the mafia chat. If the don is dead, "
            "the lowest-numbered living mafia chooses the kill.")),
        RoleInfo(Role.LAWYER, Team.MAFIA, N_("Lawyer"), N_(
            "Each night you cover one player: if the commissar checks that player tonight, "
            "he is shown as peaceful.")),
        RoleInfo(Role.DOCTOR, Team.TOWN, N_("Doctor"), N_(
            "Each night you heal one player, who then survives every kill of that night. "
            "You may heal yourself only once per game.")),
        RoleInfo(Role.COMMISSAR, Team.TOWN, N_("Commissar Cattani"), N_(
            "Each night you either check a player (mafia or peaceful) or shoot one. "
            "No shooting on the first night. Your sergeant sees your checks.")),
        RoleInfo(Role.SERGEANT, Team.TOWN, N_("Sergeant"), N_(
            "You help the commissar and see his checks. When he dies, you take his place.")),
        RoleInfo(Role.LOVER, Team.TOWN, N_("Lover"), N_(
            "Each night you visit one player and cancel his action for the night. "
            "The commissar is not affected.")),
        RoleInfo(Role.HOBO, Team.TOWN, N_("Hobo"), N_(
            "Each night you go to someone's door for a bottle. If anyone attacks that player tonight, "
            "you see who.")),
        RoleInfo(Role.KAMIKAZE, Team.TOWN, N_("Kamikaze"), N_(
            "Killed at night, you take your killers with you. Voted out by day, you pick one of "
            "those who voted against you to die with you.")),
        RoleInfo(Role.WEREWOLF, Team.TOWN, N_("Werewolf"), N_(
            "Attacked by the mafia, you join the mafia. Shot by the commissar, you become a sergeant. "
            "Killed by the killer or voted out, you die.")),
        RoleInfo(Role.KILLER, Team.KILLER, N_("Killer"), N_(
            "You play alone and kill one player each night. You win only if you are the last one alive.")),
        RoleInfo(Role.CIVILIAN, Team.TOWN, N_("Civilian"), N_(
            "No night power. Find the mafia in the discussion and vote them out.")),
    )
}

UK_ROLES: dict[Role, RoleInfo] = {
    info.role: info
    for info in (
        RoleInfo(Role.DON, Team.BLACK, N_("Don"), N_(
            "Head of the mafia. Each night you decide whom the mafia shoots.")),
        RoleInfo(Role.MAFIA, Team.BLACK, N_("Mafia"), N_(
            "You shoot with the don each night. If the don is dead, the lowest-numbered living mafia "
            "decides.")),
        RoleInfo(Role.COURTESAN, Team.BLACK, N_("Courtesan"), N_(
            "Plays for the black team. Each night you freeze one player: a frozen commissar does not check, "
            "a frozen doctor does not heal, a frozen maniac does not kill. Not the same player three nights "
            "in a row. Left alone, you also shoot each night.")),
        RoleInfo(Role.COMMISSAR, Team.RED, N_("Commissar"), N_(
            "Each night you check one player: black or red. Once per game you may leave a note with "
            "tonight's result; if you are killed this night, it is read out at dawn.")),
        RoleInfo(Role.DOCTOR, Team.RED, N_("Doctor"), N_(
            "Each night you heal one player from every kill and from the courtesan's freeze. You may heal "
            "yourself, but not the same player three nights in a row.")),
        RoleInfo(Role.MANIAC, Team.RED, N_("Maniac"), N_(
            "Plays for the red team. Each night you may kill one player, or hold back.")),
        RoleInfo(Role.CIVILIAN, Team.RED, N_("Civilian"), N_(
            "No night power. Listen, nominate and vote out the black team.")),
    )
}

ROLE_TABLES: dict[str, dict[Role, RoleInfo]] = {"uz": UZ_ROLES, "uk": UK_ROLES}

TEAM_NAMES: dict[Team, str] = {
    Team.MAFIA: N_("Mafia"),
    Team.TOWN: N_("Town"),
    Team.KILLER: N_("Killer"),
    Team.BLACK: N_("Black"),
    Team.RED: N_("Red"),
}


def team_of(rules: str, role: Role) -> Team:
    return ROLE_TABLES[rules][role].team
