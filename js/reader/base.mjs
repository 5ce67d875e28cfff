export const FORMAT = "tutto-sim-policy";
export const VERSION = 1;
export const POINT_UNIT = 50;
export const GAMES = ["tutto", "macke", "rutsmieter", "tutto-win", "macke-win"];

/** A policy file that must not be used; `message` says why in one line, `reason` is a code. */
export class PolicyError extends Error {
  constructor(message, reason) {
    super(message);
    this.name = "PolicyError";
    this.reason = reason;
  }
}

/** What every loaded file tells: its game, JSON, rules, the rules' and content's SHA-256, summary. */
export class LoadedFile {
  constructor(game, d, rules, contentSha256) {
    this.game = game;
    this.doc = d;
    this.rules = rules;
    this.rulesSha256 = d.rules_sha256;
    this.contentSha256 = contentSha256;
    this.summary = d.summary;
  }
}
