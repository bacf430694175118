"""$text for the emulator: MongoDB's text search over the fields of a collection's text index.

mongomock refuses `$text`. The emulator replaces it with the `_id`s of the documents a server's text
search would match, and mongomock runs the rest of the filter, sort, skip and limit as usual. The
semantics are MongoDB's documented ones for a version 3 text index (case- and diacritic-insensitive):

* the search string is split into terms at white space; `"…"` is a phrase; a leading `-` negates a
  term or a phrase;
* a document is a candidate when its indexed text holds at least one positive term (or a word of a
  positive phrase), as an index lookup would give;
* every positive phrase must occur in the field's text (folded, as a substring);
* a document holding a negated term, or a negated phrase, is left out; a search of negations only
  matches nothing.

Tokens are runs of letters, digits, marks and '_' (MongoDB's delimiters are white space, dashes,
hyphens, quotation marks, pattern syntax and terminal punctuation). Only `default_language: none`
is modelled faithfully (no stemming, no stop words), which is what the store uses; other languages
are searched the same way, without stemming.
"""

import re
import unicodedata

_TOKEN = re.compile(r'[\w]+', re.UNICODE)
_QUOTED = re.compile(r'(-?)"([^"]*)"')


class TextIndexMissing(Exception):
    """No text index on the collection: a server answers IndexNotFound (27)."""


def fold(text):
    """Case- and diacritic-insensitive form, as a version 3 text index compares."""
    decomposed = unicodedata.normalize('NFKD', text)
    stripped = ''.join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold()


def terms_of(text):
    return _TOKEN.findall(fold(text))


def parse_search(search):
    """(positive terms, positive phrases, negated terms, negated phrases), all folded."""
    phrases, negated_phrases = [], []

    def take(match):
        (negated_phrases if match.group(1) else phrases).append(fold(match.group(2)))
        return ' '
    rest = _QUOTED.sub(take, search)
    terms, negated = [], []
    for word in rest.split():
        if word.startswith('-') and len(word) > 1:
            negated.extend(terms_of(word[1:]))
        else:
            terms.extend(terms_of(word))
    return terms, phrases, negated, negated_phrases


def _field_texts(doc, path):
    value = doc
    for part in path.split('.'):
        if isinstance(value, list):
            value = [v.get(part) for v in value if isinstance(v, dict)]
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return []
    values = value if isinstance(value, list) else [value]
    return [v for v in values if isinstance(v, str)]


def matching_ids(docs, fields, search):
    terms, phrases, negated, negated_phrases = parse_search(search)
    wanted = set(terms)
    for p in phrases:
        wanted.update(terms_of(p))
    ids = []
    for doc in docs:
        texts = [t for f in fields for t in _field_texts(doc, f)]
        folded = [fold(t) for t in texts]
        words = set(w for t in texts for w in terms_of(t))
        if not wanted & words:
            continue
        if not all(any(p in t for t in folded) for p in phrases):
            continue
        if set(negated) & words or any(any(p in t for t in folded) for p in negated_phrases):
            continue
        ids.append(doc['_id'])
    return ids


def text_fields(index_specs):
    """The fields of the collection's text index (a collection has at most one)."""
    for spec in index_specs.values():
        fields = [k for k, v in spec['key'].items() if v == 'text']
        if fields:
            return fields
    raise TextIndexMissing()


def resolve_text(filter_doc, documents, index_specs):
    """The filter with a top-level $text replaced by the _ids of the matching `documents` (the
    collection's); unchanged without one."""
    if not isinstance(filter_doc, dict) or '$text' not in filter_doc:
        return filter_doc
    rest = {k: v for k, v in filter_doc.items() if k != '$text'}
    fields = text_fields(index_specs)
    ids = matching_ids(documents, fields, filter_doc['$text'].get('$search', ''))
    text_clause = {'_id': {'$in': ids}}
    return {'$and': [text_clause, rest]} if rest else text_clause
