#!/usr/bin/python3
"""A MongoDB wire-protocol emulator for the test suite (see README.md beside this file).

mockupdb speaks the wire protocol; every command it receives is answered here by running it on
mongomock, an in-memory query engine. What mongomock lacks and the store uses is supplied below:
pipeline-style updates (the pipeline's stages run over the matched document), the $$NOW variable,
some expression operators ($type, $add on dates, ...), cursors, index metadata and the
`configureFailPoint` / `failCommand` test command a real server offers for injecting errors.

Commands are served one at a time (mockupdb holds one lock per server while a request is handled),
so each command is atomic, as one document's write is on a real server; nothing here isolates
concurrent transactions.

Usage: /usr/bin/python3 emulator.py [--port N] [--state FILE] [--replica-set NAME]
Prints `listening <port>` once ready; exits when stdin closes (its parent died) or on SIGTERM,
writing the data to FILE first when --state is given (and loading it on start).
"""

import argparse
import copy
import datetime
import itertools
import operator
import os
import pickle
import signal
import socket
import sys
import threading
import time
import traceback
import weakref

import bson
from bson import Int64, ObjectId
from bson.son import SON
import mockupdb
import mongomock
from mongomock import aggregate as mm_aggregate
from mongomock import collection as mm_collection
from mongomock import filtering as mm_filtering

import text_search  # beside this file: $text, which mongomock lacks

MAX_WIRE_VERSION = 17  # MongoDB 6.0
BATCH_BYTES = 4 * 1024 * 1024


class CommandError(Exception):
    """An error reply: {ok: 0, code, codeName, errmsg, errorLabels}."""

    def __init__(self, code, code_name, errmsg, labels=None):
        super().__init__(errmsg)
        self.reply = {'ok': 0, 'code': code, 'codeName': code_name, 'errmsg': errmsg}
        if labels:
            self.reply['errorLabels'] = labels


# ── the clock ─────────────────────────────────────────────────────────────────────────────────
# $$NOW is one value for the whole command, as on a real server.
_command_now = [None]


def server_now():
    now = datetime.datetime.utcnow()
    return now.replace(microsecond=(now.microsecond // 1000) * 1000)


def command_now():
    return _command_now[0] or server_now()


mongomock.utcnow = command_now  # $currentDate and the TTL monitor read the same clock


# ── expressions mongomock lacks ───────────────────────────────────────────────────────────────
def _type_name(value):
    if value is None:
        return 'null'
    if isinstance(value, bool):
        return 'bool'
    if isinstance(value, Int64):
        return 'long'
    if isinstance(value, int):
        return 'int' if -2**31 <= value < 2**31 else 'long'
    if isinstance(value, float):
        return 'double'
    if isinstance(value, str):
        return 'string'
    if isinstance(value, datetime.datetime):
        return 'date'
    if isinstance(value, dict):
        return 'object'
    if isinstance(value, (list, tuple)):
        return 'array'
    if isinstance(value, ObjectId):
        return 'objectId'
    if isinstance(value, (bytes, bson.Binary)):
        return 'binData'
    if isinstance(value, bson.Decimal128):
        return 'decimal'
    if isinstance(value, bson.Timestamp):
        return 'timestamp'
    if isinstance(value, bson.Regex):
        return 'regex'
    return 'object'


def _operand(parser, expression):
    """The expression's value, or the marker MISSING when it names an absent field."""
    try:
        return parser.parse(expression)
    except KeyError:
        return MISSING


MISSING = object()


def _expr_type(parser, arg):
    if isinstance(arg, list) and len(arg) == 1:
        arg = arg[0]
    value = _operand(parser, arg)
    return 'missing' if value is MISSING else _type_name(value)


def _expr_add(parser, args):
    values = [_operand(parser, a) for a in args]
    if any(v is None or v is MISSING for v in values):
        return None
    dates = [v for v in values if isinstance(v, datetime.datetime)]
    numbers = [v for v in values if not isinstance(v, datetime.datetime)]
    if len(dates) > 1:
        raise CommandError(16612, 'Location16612', 'only one date allowed in an $add expression')
    total = sum(numbers)
    if dates:
        return dates[0] + datetime.timedelta(milliseconds=round(total))
    return total


def _expr_mod(parser, args):
    a, b = (_operand(parser, x) for x in args)
    if a in (None, MISSING) or b in (None, MISSING):
        return None
    if isinstance(a, int) and isinstance(b, int):
        return int(abs(a) % abs(b)) * (1 if a >= 0 else -1)
    return a % b


def _to_millis(value):
    return int((value - datetime.datetime(1970, 1, 1)).total_seconds() * 1000)


def _expr_to_long(parser, arg):
    value = _operand(parser, arg)
    if value in (None, MISSING):
        return None
    if isinstance(value, datetime.datetime):
        return Int64(_to_millis(value))
    return Int64(int(value))


def _expr_to_date(parser, arg):
    value = _operand(parser, arg)
    if value in (None, MISSING):
        return None
    if isinstance(value, datetime.datetime):
        return value
    return datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=int(value))


def _expr_subtract(parser, args):
    a, b = (_operand(parser, x) for x in args)
    if a in (None, MISSING) or b in (None, MISSING):
        return None
    if isinstance(a, datetime.datetime) and isinstance(b, datetime.datetime):
        return Int64(_to_millis(a) - _to_millis(b))
    if isinstance(a, datetime.datetime):
        return a - datetime.timedelta(milliseconds=b)
    return a - b


def _expr_min_max(pick):
    def handler(parser, args):
        values = [_operand(parser, a) for a in (args if isinstance(args, list) else [args])]
        if len(values) == 1 and isinstance(values[0], list):
            values = values[0]
        values = [v for v in values if v is not None and v is not MISSING]
        if not values:
            return None
        best = values[0]
        for v in values[1:]:
            if mm_filtering.bson_compare(pick, v, best):
                best = v
        return best
    return handler


def _compare(a, b):
    """-1, 0 or 1 in the order aggregation expressions compare values: a missing field below
    everything (null included), then BSON's order of types, then the values."""
    if a is MISSING or b is MISSING:
        return (a is not MISSING) - (b is not MISSING)
    if mm_filtering.bson_compare(operator.lt, a, b):
        return -1
    if mm_filtering.bson_compare(operator.gt, a, b):
        return 1
    return 0


def _expr_comparison(test):
    def handler(parser, args):
        a, b = (_operand(parser, x) for x in args)
        if test is None:
            return _compare(a, b)
        if a is MISSING or b is MISSING or isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
            return test(_compare(a, b))
        return test(0 if a == b else _compare(a, b))
    return handler


def _gt(a, b):
    return a > b


def _lt(a, b):
    return a < b


# Expression operators handled here instead of by mongomock. Extend this table (name → function of
# the mongomock parser and the operator's argument) when the store starts using another one.
EXPRESSIONS = {
    '$type': _expr_type,
    '$add': _expr_add,
    '$mod': _expr_mod,
    '$subtract': _expr_subtract,
    '$toLong': _expr_to_long,
    '$toDate': _expr_to_date,
    '$min': _expr_min_max(_lt),
    '$max': _expr_min_max(_gt),
    '$eq': _expr_comparison(lambda c: c == 0),
    '$ne': _expr_comparison(lambda c: c != 0),
    '$lt': _expr_comparison(lambda c: c < 0),
    '$lte': _expr_comparison(lambda c: c <= 0),
    '$gt': _expr_comparison(lambda c: c > 0),
    '$gte': _expr_comparison(lambda c: c >= 0),
    '$cmp': _expr_comparison(None),
}

SYSTEM_VARIABLES = {
    'NOW': command_now,
}

_original_parse = mm_aggregate._Parser.parse
_original_basic = mm_aggregate._Parser._parse_basic_expression


def _parse(self, expression):
    if isinstance(expression, dict) and len(expression) == 1:
        (operator, argument), = expression.items()
        handler = EXPRESSIONS.get(operator)
        if handler is not None:
            return handler(self, argument)
    return _original_parse(self, expression)


def _parse_basic(self, expression):
    if isinstance(expression, str) and expression.startswith('$$'):
        name, _, rest = expression[2:].partition('.')
        if name in SYSTEM_VARIABLES and not rest:
            return SYSTEM_VARIABLES[name]()
    return _original_basic(self, expression)


mm_aggregate._Parser.parse = _parse
mm_aggregate._Parser._parse_basic_expression = _parse_basic


def _unset_stage(in_collection, unused_database, options):
    fields = [options] if isinstance(options, str) else list(options)
    out = []
    for doc in in_collection:
        doc = copy.deepcopy(doc)
        for field in fields:
            parts = field.split('.')
            target = doc
            for part in parts[:-1]:
                target = target.get(part) if isinstance(target, dict) else None
            if isinstance(target, dict):
                target.pop(parts[-1], None)
        out.append(doc)
    return out


def _replace_with_stage(in_collection, unused_database, options):
    return [mm_aggregate._parse_expression(options, doc) for doc in in_collection]


mm_aggregate._PIPELINE_HANDLERS['$unset'] = _unset_stage
mm_aggregate._PIPELINE_HANDLERS['$replaceWith'] = _replace_with_stage


# ── a fast path for plain filters ─────────────────────────────────────────────────────────────
# mongomock's matcher costs ~100 µs per document; the store's filters are mostly equality and range
# conditions on top-level scalar fields. Those are decided here when the answer is certain (both
# sides of the same simple type, or a missing/null field); anything else (arrays, sub-documents,
# dotted paths, other operators, mixed types) goes to mongomock's own matcher, which stays the
# reference.
_UNSURE = object()


def _bracket(value):
    if isinstance(value, bool):
        return 'bool'
    if isinstance(value, (int, float)):
        return 'number'
    if isinstance(value, str):
        return 'string'
    if isinstance(value, datetime.datetime):
        return 'date'
    if isinstance(value, ObjectId):
        return 'objectId'
    return None


def _fast_eq(value, arg):
    if arg is None:
        return value is None or value is MISSING
    if value is MISSING or value is None:
        return False if _bracket(arg) else _UNSURE
    a, b = _bracket(value), _bracket(arg)
    if a is None or b is None:
        return _UNSURE
    return a == b and value == arg


_RANGE = {'$lt': lambda a, b: a < b, '$lte': lambda a, b: a <= b, '$gt': lambda a, b: a > b, '$gte': lambda a, b: a >= b}


def _fast_op(op, value, arg):
    if op == '$eq':
        return _fast_eq(value, arg)
    if op == '$ne':
        r = _fast_eq(value, arg)
        return r if r is _UNSURE else not r
    if op in _RANGE:
        b = _bracket(arg)
        if b is None:
            return _UNSURE
        if value is MISSING or value is None:
            return False
        a = _bracket(value)
        if a is None:
            return _UNSURE
        return a == b and _RANGE[op](value, arg)
    if op == '$in' and isinstance(arg, list):
        simple, others = _in_parts(arg)
        b = None if value is MISSING or value is None else _bracket(value)
        if b is not None and (b, value) in simple:
            return True
        results = [_fast_eq(value, x) for x in others]
        if True in results:
            return True
        if _UNSURE in results or (b is None and value is not MISSING and value is not None and simple):
            return _UNSURE
        return False
    if op == '$exists':
        return (value is not MISSING) == bool(arg)
    return _UNSURE


# An `$in` list is looked up in a set (per list, while its command runs) instead of compared item by
# item: `{_id: {$in: [500 ids]}}` over 10,000 documents is 10,000 lookups, not 5 million comparisons.
# The set holds (type bracket, value), so 1 and '1' stay apart while 1 and 1.0 meet, as in MongoDB.
_IN_SETS = {}


def _in_parts(arg):
    hit = _IN_SETS.get(id(arg))
    if hit is not None and hit[0] is arg:
        return hit[1], hit[2]
    simple, others = set(), []
    for x in arg:
        b = _bracket(x)
        if b is None:
            others.append(x)
        else:
            try:
                simple.add((b, x))
            except TypeError:
                others.append(x)
    if len(_IN_SETS) > 256:
        _IN_SETS.clear()
    _IN_SETS[id(arg)] = (arg, simple, others)
    return simple, others


def _fast_match(spec, doc):
    for key, cond in spec.items():
        if key in ('$or', '$and') and isinstance(cond, list):
            results = [_fast_match(c, doc) if isinstance(c, dict) else _UNSURE for c in cond]
            if key == '$or':
                r = True if True in results else (_UNSURE if _UNSURE in results else False)
            else:
                r = False if False in results else (_UNSURE if _UNSURE in results else True)
        elif key == '$expr':
            # As mongomock's matcher decides it, without its per-document overhead.
            try:
                r = bool(mm_aggregate._parse_expression(cond, doc, ignore_missing_keys=True))
            except Exception:  # noqa: BLE001 - mongomock's own matcher reports it
                return _UNSURE
        elif key.startswith('$') or '.' in key:
            return _UNSURE
        else:
            value = doc.get(key, MISSING)
            if isinstance(value, (list, dict)):
                return _UNSURE
            if isinstance(cond, dict) and cond and all(k.startswith('$') for k in cond):
                r = True
                for op, arg in cond.items():
                    one = _fast_op(op, value, arg)
                    if one is _UNSURE:
                        return _UNSURE
                    if not one:
                        r = False
                        break
            else:
                r = _fast_eq(value, cond)
        if r is _UNSURE:
            return _UNSURE
        if not r:
            return False
    return True


_mongomock_filter_applies = mm_filtering.filter_applies


def _filter_applies(search_filter, document):
    if isinstance(search_filter, dict) and isinstance(document, dict):
        r = _fast_match(search_filter, document)
        if r is not _UNSURE:
            return r
    return _mongomock_filter_applies(search_filter, document)


mm_collection.filter_applies = _filter_applies


def _keys_of(search_filter):
    """The `_id`s a filter can only match (a plain `_id`, or `_id: {$in: [...]}` of plain ids), or None."""
    if not isinstance(search_filter, dict) or '_id' not in search_filter:
        return None
    cond = search_filter['_id']
    if isinstance(cond, dict) and list(cond) == ['$in'] and isinstance(cond['$in'], list):
        keys = cond['$in']
    elif isinstance(cond, dict):
        return None
    else:
        keys = [cond]
    if not all(isinstance(k, (str, int, ObjectId)) and not isinstance(k, bool) for k in keys):
        return None
    return list(dict.fromkeys(keys))


_mongomock_iter_documents = mm_collection.Collection._iter_documents


def _iter_documents(self, search_filter):
    """mongomock walks every document for every statement; a filter on `_id` looks its documents up."""
    keys = _keys_of(search_filter)
    if keys is None:
        return _mongomock_iter_documents(self, search_filter)
    found = [self._store[k] for k in keys if k in self._store]
    return iter([d for d in found if _filter_applies(search_filter, d)])


mm_collection.Collection._iter_documents = _iter_documents


# BSON's order of types, for sorting.
_SORT_RANK = {None: 1, 'number': 2, 'string': 3, 'objectId': 7, 'bool': 8, 'date': 9}


def _sort_key(field, docs):
    """A sort key for one field: BSON's type order, then the value; mongomock's for anything else."""
    def simple(doc):
        value = doc.get(field, None) if '.' not in field else MISSING
        if value is None:
            return (1, 0)
        bracket = _bracket(value)
        return (_SORT_RANK[bracket], value) if bracket in _SORT_RANK else None

    if all(simple(d) is not None for d in docs):
        return simple
    return lambda doc: mm_filtering.resolve_sort_key(field, doc)


# ── the engine ────────────────────────────────────────────────────────────────────────────────
class Emulator:
    def __init__(self, replica_set=None):
        self.client = mongomock.MongoClient()
        self.replica_set = replica_set
        self.port = None
        self.cursors = {}
        self.cursor_ids = itertools.count(1000)
        self.connection_ids = itertools.count(1)
        # (db, collection) → {index name → index document as listIndexes shows it}
        self.indexes = {}
        self.tuned = weakref.WeakSet()
        self.fail_point = None  # the failCommand fail point: {'mode': …, 'data': …}
        self.transactions = {}  # lsid id → snapshot taken at startTransaction
        self.transaction_counts = {'started': 0, 'committed': 0, 'aborted': 0}
        self.commands = {
            'hello': self.cmd_hello,
            'ismaster': self.cmd_hello,
            'isMaster': self.cmd_hello,
            'ping': lambda db, cmd: {},
            'buildInfo': self.cmd_build_info,
            'buildinfo': self.cmd_build_info,
            'getParameter': lambda db, cmd: {},
            'serverStatus': lambda db, cmd: {'localTime': server_now(), 'uptime': 1},
            'endSessions': lambda db, cmd: {},
            'killAllSessions': lambda db, cmd: {},
            'find': self.cmd_find,
            'getMore': self.cmd_get_more,
            'killCursors': self.cmd_kill_cursors,
            'insert': self.cmd_insert,
            'update': self.cmd_update,
            'delete': self.cmd_delete,
            'findAndModify': self.cmd_find_and_modify,
            'findandmodify': self.cmd_find_and_modify,
            'aggregate': self.cmd_aggregate,
            'count': self.cmd_count,
            'distinct': self.cmd_distinct,
            'createIndexes': self.cmd_create_indexes,
            'listIndexes': self.cmd_list_indexes,
            'dropIndexes': self.cmd_drop_indexes,
            'create': self.cmd_create,
            'drop': self.cmd_drop,
            'dropDatabase': self.cmd_drop_database,
            'listCollections': self.cmd_list_collections,
            'listDatabases': self.cmd_list_databases,
            'commitTransaction': self.cmd_commit_transaction,
            'abortTransaction': self.cmd_abort_transaction,
            'configureFailPoint': self.cmd_configure_fail_point,
            'emulatorStatus': lambda db, cmd: {'transactions': dict(self.transaction_counts)},
        }

    # ── dispatch ──
    def handle(self, request):
        sock = request._client
        if sock not in self.tuned:
            # Replies go out at once, not held back by Nagle's algorithm waiting for an ACK.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.tuned.add(sock)
        cmd = request.doc
        name = request.command_name
        db_name = request.namespace.split('.')[0] if request.namespace else 'admin'
        db_name = cmd.get('$db', db_name)
        _command_now[0] = server_now()
        try:
            failure = self.injected_failure(name)
            if failure == 'hangup':
                request.hangup()
                return True
            if failure is not None and 'writeConcernError' not in failure:
                request.replies(failure)
                return True
            handler = self.commands.get(name)
            if handler is None:
                raise CommandError(59, 'CommandNotFound', "no such command: '%s'" % name)
            self.check_transaction(cmd)
            reply = handler(self.client[db_name], cmd)
            if failure is not None:
                reply = dict(reply, writeConcernError=failure['writeConcernError'])
                if 'errorLabels' in failure:
                    reply['errorLabels'] = failure['errorLabels']
            request.replies(dict(reply, ok=reply.get('ok', 1)))
        except CommandError as err:
            request.replies(err.reply)
        except mongomock.DuplicateKeyError as err:
            request.replies({'ok': 0, 'code': 11000, 'codeName': 'DuplicateKey', 'errmsg': 'E11000 duplicate key error: %s' % err})
        except mongomock.OperationFailure as err:
            request.replies({'ok': 0, 'code': err.code or 2, 'codeName': 'BadValue', 'errmsg': str(err)})
        except NotImplementedError as err:
            request.replies({'ok': 0, 'code': 115, 'codeName': 'CommandNotSupported', 'errmsg': 'emulator: %s' % err})
        except Exception as err:  # noqa: BLE001 - an emulator bug answers as an error, never as silence
            traceback.print_exc()
            request.replies({'ok': 0, 'code': 1, 'codeName': 'InternalError', 'errmsg': 'emulator: %s: %s' % (type(err).__name__, err)})
        finally:
            _command_now[0] = None
        return True

    # ── fail points (the failCommand test command of a real server) ──
    def cmd_configure_fail_point(self, db, cmd):
        if cmd['configureFailPoint'] != 'failCommand':
            raise CommandError(2, 'BadValue', 'emulator: only the failCommand fail point exists')
        mode = cmd.get('mode')
        if mode == 'off':
            self.fail_point = None
        else:
            self.fail_point = {'mode': mode, 'data': cmd.get('data', {})}
        return {}

    def injected_failure(self, name):
        fp = self.fail_point
        if fp is None or name in ('configureFailPoint', 'hello', 'ismaster', 'isMaster'):
            return None
        data = fp['data']
        if name not in data.get('failCommands', []):
            return None
        mode = fp['mode']
        if isinstance(mode, dict) and mode.get('skip', 0) > 0:
            mode['skip'] -= 1
            return None
        if isinstance(mode, dict) and 'times' in mode:
            mode['times'] -= 1
            if mode['times'] <= 0:
                self.fail_point = None
        if data.get('blockConnection'):
            with self.server._unlock():
                time.sleep(data.get('blockTimeMS', 0) / 1000)
        if data.get('closeConnection'):
            return 'hangup'
        if 'writeConcernError' in data:
            out = {'writeConcernError': data['writeConcernError']}
            if 'errorLabels' in data:
                out['errorLabels'] = data['errorLabels']
            return out
        if 'errorCode' in data:
            reply = {'ok': 0, 'code': data['errorCode'], 'codeName': 'FailPoint', 'errmsg': 'Failing command via failCommand fail point'}
            if 'errorLabels' in data:
                reply['errorLabels'] = data['errorLabels']
            return reply
        return None

    # ── handshake and server ──
    def cmd_hello(self, db, cmd):
        reply = {
            'helloOk': True,
            'ismaster': True,
            'isWritablePrimary': True,
            'maxBsonObjectSize': 16 * 1024 * 1024,
            'maxMessageSizeBytes': 48000000,
            'maxWriteBatchSize': 100000,
            'localTime': server_now(),
            'logicalSessionTimeoutMinutes': 30,
            'connectionId': next(self.connection_ids),
            'minWireVersion': 0,
            'maxWireVersion': MAX_WIRE_VERSION,
            'readOnly': False,
        }
        if self.replica_set:
            me = '127.0.0.1:%d' % self.port
            reply.update({'setName': self.replica_set, 'setVersion': 1, 'hosts': [me], 'primary': me, 'me': me,
                          'secondary': False, 'electionId': ObjectId('7fffffff0000000000000001'),
                          'lastWrite': {'lastWriteDate': server_now()}})
        return reply

    def cmd_build_info(self, db, cmd):
        return {'version': '6.0.0-emulator', 'versionArray': [6, 0, 0, 0], 'bits': 64, 'maxBsonObjectSize': 16 * 1024 * 1024}

    # ── transactions (replica-set mode only; no isolation, see README) ──
    def check_transaction(self, cmd):
        if 'txnNumber' not in cmd:
            return
        if not self.replica_set:
            raise CommandError(20, 'IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos')
        if cmd.get('startTransaction'):
            self.transactions[self.session_key(cmd)] = self.snapshot()
            self.transaction_counts['started'] += 1

    @staticmethod
    def session_key(cmd):
        lsid = cmd.get('lsid', {}).get('id')  # a UUID or a Binary, as the driver sent it
        return repr(lsid) if lsid is not None else None

    def cmd_commit_transaction(self, db, cmd):
        if self.transactions.pop(self.session_key(cmd), None) is not None:
            self.transaction_counts['committed'] += 1
        return {}

    def cmd_abort_transaction(self, db, cmd):
        snapshot = self.transactions.pop(self.session_key(cmd), None)
        if snapshot is None:
            raise CommandError(251, 'NoSuchTransaction', 'Transaction was aborted or never started')
        self.restore(snapshot)
        self.transaction_counts['aborted'] += 1
        return {}

    # ── cursors ──
    def cursor_reply(self, ns, docs, batch_size=None, single_batch=False):
        first = 101 if batch_size is None else int(batch_size)
        batch, rest = ([], docs) if first == 0 else self.take(docs, first)
        cursor_id = 0
        if rest and not single_batch:
            cursor_id = next(self.cursor_ids)
            self.cursors[cursor_id] = (ns, rest)
        return {'cursor': {'id': Int64(cursor_id), 'ns': ns, 'firstBatch': batch}}

    @staticmethod
    def take(docs, count):
        batch, size = [], 0
        for doc in docs:
            if (count and len(batch) >= count) or (batch and size > BATCH_BYTES):
                break
            batch.append(doc)
            size += len(bson.encode(doc))
        return batch, docs[len(batch):]

    def cmd_get_more(self, db, cmd):
        cursor_id = int(cmd['getMore'])
        if cursor_id not in self.cursors:
            raise CommandError(43, 'CursorNotFound', 'cursor id %d not found' % cursor_id)
        ns, docs = self.cursors.pop(cursor_id)
        batch, rest = self.take(docs, cmd.get('batchSize') or 0)
        if rest:
            self.cursors[cursor_id] = (ns, rest)
        else:
            cursor_id = 0
        return {'cursor': {'id': Int64(cursor_id), 'ns': ns, 'nextBatch': batch}}

    def cmd_kill_cursors(self, db, cmd):
        killed = []
        for cursor_id in cmd.get('cursors', []):
            if self.cursors.pop(int(cursor_id), None) is not None:
                killed.append(cursor_id)
        return {'cursorsKilled': killed, 'cursorsNotFound': [], 'cursorsAlive': [], 'cursorsUnknown': []}

    # ── reads ──
    @staticmethod
    def sort_list(sort):
        return list(sort.items()) if sort else None

    @staticmethod
    def query(coll, spec, sort=None, projection=None, skip=0, limit=0):
        """Matching documents (copies), sorted, skipped, limited, projected: one pass over the
        collection (mongomock's own cursor recomputes its result for every document it hands out),
        or a direct lookup by _id, and only the documents returned are copied."""
        spec = spec or {}
        keys = _keys_of(spec)
        if keys is not None:
            found = [coll._store[k] for k in keys if k in coll._store]
            if len(spec) > 1 or len(keys) > 1:
                found = [d for d in found if _filter_applies(spec, d)]
            for field, direction in reversed(sort or []):
                found.sort(key=_sort_key(field, found), reverse=direction < 0)
        else:
            mm_filtering.filter_applies(spec, {})  # a bad filter fails even on an empty collection
            found = [d for d in coll._store.documents if _filter_applies(spec, d)]
            for field, direction in reversed(sort or []):
                found.sort(key=_sort_key(field, found), reverse=direction < 0)
        found = found[skip:]
        if limit:
            found = found[:limit]
        return [coll._copy_only_fields(d, projection, dict) for d in found]

    def with_text(self, db, coll, filter_doc):
        try:
            return text_search.resolve_text(filter_doc, coll._store.documents, self.index_map(db, coll.name))
        except text_search.TextIndexMissing:
            raise CommandError(27, 'IndexNotFound', 'text index required for $text query')

    def cmd_find(self, db, cmd):
        coll = db[cmd['find']]
        limit = int(cmd.get('limit', 0) or 0)
        docs = self.query(coll, self.with_text(db, coll, cmd.get('filter')), self.sort_list(cmd.get('sort')), cmd.get('projection') or None,
                          int(cmd.get('skip', 0) or 0), abs(limit))
        return self.cursor_reply('%s.%s' % (db.name, coll.name), docs, cmd.get('batchSize'), cmd.get('singleBatch') or limit < 0)

    def cmd_aggregate(self, db, cmd):
        if cmd['aggregate'] == 1:
            raise CommandError(115, 'CommandNotSupported', 'emulator: database-level aggregate is not supported')
        coll = db[cmd['aggregate']]
        docs = list(coll.aggregate(list(cmd.get('pipeline', []))))
        return self.cursor_reply('%s.%s' % (db.name, coll.name), docs, (cmd.get('cursor') or {}).get('batchSize'))

    def cmd_count(self, db, cmd):
        coll = db[cmd['count']]
        kwargs = {}
        if cmd.get('skip'):
            kwargs['skip'] = int(cmd['skip'])
        if cmd.get('limit'):
            kwargs['limit'] = int(cmd['limit'])
        return {'n': coll.count_documents(cmd.get('query') or {}, **kwargs)}

    def cmd_distinct(self, db, cmd):
        return {'values': db[cmd['distinct']].distinct(cmd['key'], cmd.get('query') or {})}

    # ── writes ──
    def cmd_insert(self, db, cmd):
        coll = db[cmd['insert']]
        ordered = cmd.get('ordered', True)
        n, errors = 0, []
        for i, doc in enumerate(cmd.get('documents', [])):
            try:
                coll.insert_one(doc)
                n += 1
            except mongomock.DuplicateKeyError as err:
                errors.append({'index': i, 'code': 11000, 'errmsg': 'E11000 duplicate key error: %s' % err})
                if ordered:
                    break
        return self.write_reply({'n': n}, errors)

    @staticmethod
    def write_reply(reply, errors):
        if errors:
            reply['writeErrors'] = errors
        return reply

    def cmd_update(self, db, cmd):
        coll = db[cmd['update']]
        ordered = cmd.get('ordered', True)
        n = modified = 0
        upserted, errors = [], []
        for i, statement in enumerate(cmd.get('updates', [])):
            try:
                matched, changed, upserted_id, _ = self.update(coll, statement.get('q') or {}, statement['u'],
                                                                multi=statement.get('multi', False), upsert=statement.get('upsert', False))
            except mongomock.DuplicateKeyError as err:
                errors.append({'index': i, 'code': 11000, 'errmsg': 'E11000 duplicate key error: %s' % err})
                if ordered:
                    break
                continue
            except (mongomock.OperationFailure, mongomock.WriteError) as err:
                errors.append({'index': i, 'code': getattr(err, 'code', None) or 2, 'errmsg': str(err)})
                if ordered:
                    break
                continue
            if upserted_id is not None:
                upserted.append({'index': i, '_id': upserted_id})
                n += 1
            else:
                n += matched
                modified += changed
        reply = {'n': n, 'nModified': modified}
        if upserted:
            reply['upserted'] = upserted
        return self.write_reply(reply, errors)

    def cmd_delete(self, db, cmd):
        coll = db[cmd['delete']]
        n = 0
        for statement in cmd.get('deletes', []):
            q = statement.get('q') or {}
            if statement.get('limit', 0) == 1:
                n += coll.delete_one(q).deleted_count
            else:
                n += coll.delete_many(q).deleted_count
        return {'n': n}

    def cmd_find_and_modify(self, db, cmd):
        coll = db[cmd.get('findAndModify') or cmd.get('findandmodify')]
        query = cmd.get('query') or {}
        sort = self.sort_list(cmd.get('sort'))
        fields = cmd.get('fields') or None
        if cmd.get('remove'):
            before = next(iter(self.query(coll, query, sort, limit=1)), None)
            if before is not None:
                coll.delete_one({'_id': before['_id']})
            return {'lastErrorObject': {'n': 1 if before else 0}, 'value': self.project(before, fields)}
        matched, _, upserted_id, (before, after) = self.update(coll, query, cmd['update'], multi=False,
                                                                upsert=cmd.get('upsert', False), sort=sort)
        value = after if cmd.get('new') else before
        last = {'n': 1 if (matched or upserted_id is not None) else 0, 'updatedExisting': bool(matched)}
        if upserted_id is not None:
            last['upserted'] = upserted_id
        return {'lastErrorObject': last, 'value': self.project(value, fields)}

    @staticmethod
    def project(doc, fields):
        if doc is None or not fields:
            return doc
        scratch = mongomock.MongoClient()['p']['p']
        scratch.insert_one(doc)
        return scratch.find_one({}, projection=fields)

    def update(self, coll, query, update, multi, upsert, sort=None):
        """Runs one update statement: (matched, modified, upserted _id or None, (before, after) of the first)."""
        targets = self.query(coll, query, sort, limit=0 if multi else 1)
        is_pipeline = isinstance(update, list)
        is_replacement = not is_pipeline and not any(k.startswith('$') for k in update)
        if not targets:
            if not upsert:
                return 0, 0, None, (None, None)
            seed = self.upsert_seed(query)
            if is_pipeline:
                new = self.run_pipeline(coll, seed, update)
            elif is_replacement:
                new = dict(update)
            else:
                # $setOnInsert applies only when the upsert inserts; mongomock ignores it on the
                # update it runs over the seed here, so its fields are set first, as a server does.
                operators = dict(update)
                seed.update(operators.pop('$setOnInsert', None) or {})
                scratch = mongomock.MongoClient()['u']['u']
                scratch.insert_one(seed)
                if operators:
                    scratch.update_one({}, operators)
                new = scratch.find_one({})
            new_id = seed.get('_id', new.get('_id', ObjectId()))
            new = dict([('_id', new_id)] + [(k, v) for k, v in new.items() if k != '_id'])
            coll.insert_one(new)
            return 0, 0, new_id, (None, self.query(coll, {'_id': new_id})[0])
        modified = 0
        first = None
        for before in targets:
            if is_pipeline:
                after = self.run_pipeline(coll, before, update)
                after['_id'] = before['_id']
                if after != before:
                    coll.replace_one({'_id': before['_id']}, after)
            elif is_replacement:
                after = dict(update, _id=before['_id'])
                coll.replace_one({'_id': before['_id']}, after)
            else:
                coll.update_one({'_id': before['_id']}, update)
            after = self.query(coll, {'_id': before['_id']})[0]
            if after != before:
                modified += 1
            if first is None:
                first = (before, after)
        return len(targets), modified, None, first

    @staticmethod
    def run_pipeline(coll, doc, pipeline):
        out = list(mm_aggregate.process_pipeline([copy.deepcopy(doc)], coll.database, pipeline, None))
        if len(out) != 1:
            raise CommandError(2, 'BadValue', 'an update pipeline must keep the document')
        return dict(out[0])

    @staticmethod
    def upsert_seed(query):
        """The fields an upsert takes from its filter: the equality conditions, as a real server does."""
        seed = {}
        for key, value in query.items():
            if key == '$and':
                for part in value:
                    seed.update(Emulator.upsert_seed(part))
            elif key.startswith('$') or '.' in key:
                continue
            elif isinstance(value, dict) and any(k.startswith('$') for k in value):
                if '$eq' in value:
                    seed[key] = value['$eq']
            else:
                seed[key] = value
        return seed

    # ── indexes and collections ──
    def index_map(self, db, name):
        return self.indexes.setdefault((db.name, name), {})

    def cmd_create_indexes(self, db, cmd):
        coll = db[cmd['createIndexes']]
        existing = self.index_map(db, coll.name)
        before = len(existing) + 1
        if coll.name not in db.list_collection_names():
            db.create_collection(coll.name)
        for spec in cmd.get('indexes', []):
            spec = dict(spec)
            key = list(spec['key'].items())
            name = spec['name']
            options = {k: v for k, v in spec.items() if k not in ('key', 'name', 'v')}
            same_name = existing.get(name)
            if same_name is not None:
                if list(same_name['key'].items()) != key:
                    raise CommandError(86, 'IndexKeySpecsConflict', 'An existing index has the same name as the requested index but a different key: %s' % name)
                if {k: v for k, v in same_name.items() if k not in ('key', 'name', 'v')} != options:
                    raise CommandError(85, 'IndexOptionsConflict', 'An existing index has the same name as the requested index but different options: %s' % name)
                continue
            for other in existing.values():
                if list(other['key'].items()) == key:
                    raise CommandError(85, 'IndexOptionsConflict', 'Index already exists with a different name: %s' % other['name'])
            if not any(v == 'text' for _, v in key):
                coll.create_index(key, name=name, unique=options.get('unique', False), sparse=options.get('sparse', False),
                                  expireAfterSeconds=options.get('expireAfterSeconds'))
            existing[name] = SON([('v', 2), ('key', SON(key)), ('name', name)] + sorted(options.items()))
        return {'numIndexesBefore': before, 'numIndexesAfter': len(existing) + 1, 'createdCollectionAutomatically': False}

    def cmd_list_indexes(self, db, cmd):
        name = cmd['listIndexes']
        if name not in db.list_collection_names():
            raise CommandError(26, 'NamespaceNotFound', 'ns does not exist: %s.%s' % (db.name, name))
        docs = [SON([('v', 2), ('key', SON([('_id', 1)])), ('name', '_id_')])] + list(self.index_map(db, name).values())
        return self.cursor_reply('%s.%s' % (db.name, name), docs, (cmd.get('cursor') or {}).get('batchSize'))

    def cmd_drop_indexes(self, db, cmd):
        coll = db[cmd['dropIndexes']]
        existing = self.index_map(db, coll.name)
        wanted = cmd.get('index')
        if wanted == '*':
            names = list(existing)
        elif isinstance(wanted, list):
            names = wanted
        elif isinstance(wanted, dict):
            names = [n for n, spec in existing.items() if list(spec['key'].items()) == list(wanted.items())]
            if not names:
                raise CommandError(27, 'IndexNotFound', "can't find index with key: %s" % dict(wanted))
        else:
            names = [wanted]
        for name in names:
            if name not in existing:
                raise CommandError(27, 'IndexNotFound', 'index not found with name [%s]' % name)
            del existing[name]
            try:
                coll.drop_index(name)
            except mongomock.OperationFailure:
                pass  # a text index was never given to mongomock
        return {'nIndexesWas': len(existing) + len(names) + 1}

    def cmd_create(self, db, cmd):
        if cmd['create'] in db.list_collection_names():
            raise CommandError(48, 'NamespaceExists', 'Collection %s.%s already exists.' % (db.name, cmd['create']))
        db.create_collection(cmd['create'])
        return {}

    def cmd_drop(self, db, cmd):
        db.drop_collection(cmd['drop'])
        self.indexes.pop((db.name, cmd['drop']), None)
        return {'ns': '%s.%s' % (db.name, cmd['drop'])}

    def cmd_drop_database(self, db, cmd):
        self.client.drop_database(db.name)
        for key in [k for k in self.indexes if k[0] == db.name]:
            del self.indexes[key]
        return {'dropped': db.name}

    def cmd_list_collections(self, db, cmd):
        docs = [{'name': n, 'type': 'collection', 'options': {}, 'info': {'readOnly': False}} for n in sorted(db.list_collection_names())]
        wanted = cmd.get('filter') or {}
        docs = [d for d in docs if mm_filtering.filter_applies(wanted, d)]
        if cmd.get('nameOnly'):
            docs = [{'name': d['name'], 'type': d['type']} for d in docs]
        return self.cursor_reply('%s.$cmd.listCollections' % db.name, docs, (cmd.get('cursor') or {}).get('batchSize'))

    def cmd_list_databases(self, db, cmd):
        names = self.client.list_database_names()
        if cmd.get('nameOnly'):
            return {'databases': [{'name': n} for n in names]}
        return {'databases': [{'name': n, 'sizeOnDisk': 0, 'empty': False} for n in names], 'totalSize': 0}

    # ── persistence across a restart ──
    def snapshot(self):
        data = {}
        for db_name in self.client.list_database_names():
            db = self.client[db_name]
            for name in db.list_collection_names():
                data[(db_name, name)] = [copy.deepcopy(d) for d in db[name].find({})]
        return {'data': data, 'indexes': copy.deepcopy(self.indexes)}

    def restore(self, snapshot):
        for db_name in self.client.list_database_names():
            self.client.drop_database(db_name)
        self.indexes = {}
        for (db_name, name), docs in snapshot['data'].items():
            db = self.client[db_name]
            db.create_collection(name)
            if docs:
                db[name].insert_many(docs)
        for (db_name, name), specs in snapshot['indexes'].items():
            if specs:
                self.cmd_create_indexes(self.client[db_name], {'createIndexes': name, 'indexes': list(specs.values())})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--port', type=int, default=0)
    parser.add_argument('--state', help='file the data is written to on exit and read from on start')
    parser.add_argument('--replica-set', help='answer as the primary of a one-member replica set with this name')
    args = parser.parse_args()

    emulator = Emulator(replica_set=args.replica_set)
    if args.state and os.path.exists(args.state):
        with open(args.state, 'rb') as f:
            emulator.restore(pickle.load(f))

    server = mockupdb.MockupDB(port=args.port, request_timeout=int(1e6))
    server._address = ('127.0.0.1', args.port)  # loopback only
    emulator.server = server
    server.autoresponds(emulator.handle)
    emulator.port = server.run()

    done = threading.Event()

    def stop(*_):
        done.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def watch_stdin():
        # The parent holds our stdin open; EOF means it is gone, and so should we be.
        try:
            while sys.stdin.buffer.read(1):
                pass
        except (OSError, ValueError):
            pass
        done.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    print('listening %d' % emulator.port, flush=True)
    while not done.wait(0.5):
        pass
    if args.state:
        # Taken between two commands; the process then exits at once (sockets close with it).
        with server._lock:
            snapshot = emulator.snapshot()
        tmp = args.state + '.tmp'
        with open(tmp, 'wb') as f:
            pickle.dump(snapshot, f)
        os.replace(tmp, args.state)
    os._exit(0)


if __name__ == '__main__':
    main()
