// Provably fair dealing, recomputed in the browser: the published algorithm of the spec
// (platform.md, "Provably fair: the algorithm"), the same as twentyone.fairness in Python, so a
// player needs to trust neither the server nor this site's Python to check a round's cards.
//
//   byte stream  HMAC-SHA256(key = seed text, message = "{client_seed}:{nonce}:{i}"), i = 0, 1, ...
//   randbelow(n) next 4 bytes big-endian as u; reject u >= 2^32 - 2^32 % n; else u % n
//   shoe         canonical order (deck by deck, suits S H D C, ranks A 2 .. 9 T J Q K), shuffled
//                by Fisher-Yates from the top index down; an infinite deck (decks null) gives each
//                card as canonical[randbelow(52)]
//   commitment   lowercase hex SHA-256 of the seed text
//
// Only WebCrypto (crypto.subtle) is used; it exists on secure origins, which include localhost.

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
/** One deck in the canonical order: AS 2S .. KS AH .. KC. */
export const CANONICAL_DECK = Object.freeze(
  [...SUITS].flatMap((suit) => [...RANKS].map((rank) => rank + suit)),
);
const TWO_32 = 2 ** 32;
const encoder = new TextEncoder();

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The commitment of a server seed: the lowercase hex SHA-256 of its text. */
export async function commitment(serverSeed) {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(serverSeed)));
}

// The HMAC key is imported once per stream; each block is one HMAC of "{client}:{nonce}:{i}".
// Blocks are fetched in batches (the shuffle of an 8-deck shoe reads about 52 blocks), since
// every subtle call is a promise: one await per block would be slow but correct too.
class FairStream {
  constructor(key, clientSeed, nonce) {
    this.key = key;
    this.prefix = `${clientSeed}:${nonce}:`;
    this.blocks = []; // DataView of each fetched block, in order
    this.next = 0; // index of the next block to read
    this.offset = 32; // byte offset inside the current block (32: none yet)
    this.current = null;
  }

  static async open(serverSeed, clientSeed, nonce) {
    const key = await crypto.subtle.importKey(
      "raw",
      encoder.encode(serverSeed),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    return new FairStream(key, clientSeed, nonce);
  }

  async prefetch(count) {
    const start = this.blocks.length;
    const signed = await Promise.all(
      Array.from({ length: count }, (_, k) =>
        crypto.subtle.sign("HMAC", this.key, encoder.encode(this.prefix + (start + k))),
      ),
    );
    for (const block of signed) this.blocks.push(new DataView(block));
  }

  async nextU32() {
    if (this.offset + 4 > 32) {
      // 32-byte blocks hold eight whole 4-byte words: a word never spans two blocks.
      if (this.next >= this.blocks.length) await this.prefetch(16);
      this.current = this.blocks[this.next++];
      this.offset = 0;
    }
    const value = this.current.getUint32(this.offset, false);
    this.offset += 4;
    return value;
  }

  async randbelow(n) {
    const limit = TWO_32 - (TWO_32 % n);
    let value = await this.nextU32();
    while (value >= limit) value = await this.nextU32();
    return value % n;
  }
}

function checkDecks(decks) {
  if (!Number.isInteger(decks) || decks < 1 || decks > 64) {
    throw new RangeError(`decks must be a whole number from 1 to 64 (or null), got ${decks}`);
  }
}

/**
 * The whole shoe of `decks` decks from the top as the seeds shuffle it (["9D", "2H", ...]).
 * With `decks` null (the infinite deck) give the first `count` cards instead.
 *
 *   await shuffledShoe("00".repeat(32), "abc", 0, 6)  // ["9D", "2H", "8S", "3H", ...]
 */
export async function shuffledShoe(serverSeed, clientSeed, nonce, decks, count = 0) {
  const stream = await FairStream.open(serverSeed, clientSeed, nonce);
  if (decks === null || decks === undefined) {
    await stream.prefetch(Math.ceil(count / 8) + 1);
    const cards = [];
    for (let k = 0; k < count; k++) cards.push(CANONICAL_DECK[await stream.randbelow(52)]);
    return cards;
  }
  checkDecks(decks);
  const cards = [];
  for (let d = 0; d < decks; d++) cards.push(...CANONICAL_DECK);
  // About one word per card, plus the rare rejections: fetch that many blocks in one go.
  await stream.prefetch(Math.ceil(cards.length / 8) + 2);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = await stream.randbelow(i + 1);
    const swap = cards[i];
    cards[i] = cards[j];
    cards[j] = swap;
  }
  return cards;
}

/**
 * Check a fairness record (or a whole round holding one under `fairness`): the commitment and
 * every card. Returns {ok, commitmentOk, computedCommitment, firstDifference: null |
 * {index, position, expected, got}, shoe, expected, error}: `shoe` is the whole recomputed shoe
 * (for an infinite deck: the cards up to the record's last), `expected` the cards the seeds give
 * at the record's positions. A malformed record gives ok false with `error` saying why.
 */
export async function verifyRecord(record) {
  const data = record && record.fairness && typeof record.fairness === "object" ? record.fairness : record;
  const result = {
    ok: false,
    commitmentOk: false,
    computedCommitment: null,
    firstDifference: null,
    shoe: [],
    expected: [],
    error: null,
  };
  const problem = describeProblem(data);
  if (problem) {
    result.error = problem;
    return result;
  }
  const { server_seed: seed, client_seed: client, nonce, decks, position, cards } = data;
  result.computedCommitment = await commitment(seed);
  result.commitmentOk = result.computedCommitment === data.commitment;
  result.shoe = await shuffledShoe(seed, client, nonce, decks, position + cards.length);
  result.expected = result.shoe.slice(position, position + cards.length);
  for (let index = 0; index < cards.length; index++) {
    const got = String(cards[index]).toUpperCase().replace(/^10/, "T");
    if (got !== result.expected[index]) {
      result.firstDifference = { index, position: position + index, expected: result.expected[index], got };
      break;
    }
  }
  result.ok = result.commitmentOk && result.firstDifference === null;
  return result;
}

// The problems are message ids (marked for extraction; this module imports nothing, so it has
// its own marker): the page that shows one translates it with _().
const N_ = (message) => message;

function describeProblem(data) {
  if (!data || typeof data !== "object") return N_("there is no fairness record");
  if (typeof data.server_seed !== "string" || !/^[0-9a-f]{64}$/.test(data.server_seed)) {
    return N_("the server seed is not revealed yet (or is not 64 lowercase hex digits)");
  }
  if (typeof data.commitment !== "string") return N_("the record has no commitment");
  if (typeof data.client_seed !== "string" || !/^[ -~]{1,64}$/.test(data.client_seed)) {
    return N_("the client seed is not 1 to 64 characters from space to '~'");
  }
  if (!Number.isInteger(data.nonce) || data.nonce < 0) return N_("the nonce is not a whole number >= 0");
  if (data.decks !== null && (!Number.isInteger(data.decks) || data.decks < 1 || data.decks > 64)) {
    return N_("decks is not a whole number from 1 to 64 (or null)");
  }
  if (!Number.isInteger(data.position) || data.position < 0) return N_("the position is not a whole number >= 0");
  if (!Array.isArray(data.cards)) return N_("the record has no list of cards");
  if (data.decks !== null && data.position + data.cards.length > 52 * data.decks) {
    return N_("the cards do not fit in the shoe");
  }
  return null;
}
