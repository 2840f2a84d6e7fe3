//===- Rings.cpp - barrier elements that are rings of mbarriers ----------===//
//
// Part of ExoGPU. The rules of docs/abstract-machine.md "Rings" (see
// Rings.h): what the interpreter checks and records at ALLOC, ARRIVE,
// COMPLETE, AWAIT and CHECKBARRIER of a barrier variable whose elements are
// rings of mbarriers, and their errors.
//
//===----------------------------------------------------------------------===//

#include "Rings.h"
#include "CheckDiagnostics.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exoam;

template <typename T> static std::string format(const T &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// ThreadCounts
//===----------------------------------------------------------------------===//

std::optional<std::pair<GlobalThread, int64_t>>
ThreadCounts::findOther(const ThreadSet &threads, int64_t count) const {
  auto it = byCount.find(count);
  if (count > 0) {
    std::optional<GlobalThread> other =
        threads.findNotIn(it == byCount.end() ? ThreadSet() : it->second);
    if (!other)
      return std::nullopt;
    for (const auto &[held, holders] : byCount)
      if (holders.contains(*other))
        return std::pair(*other, held);
    return std::pair(*other, int64_t(0));
  }
  for (const auto &[held, holders] : byCount)
    if (std::optional<GlobalThread> other = threads.findIn(holders))
      return std::pair(*other, held);
  return std::nullopt;
}

void ThreadCounts::increment(const ThreadSet &threads, int64_t count) {
  if (count > 0) {
    auto it = byCount.find(count);
    if (it != byCount.end()) {
      it->second = it->second.subtract(threads);
      if (it->second.empty())
        byCount.erase(it);
    }
  }
  byCount[count + 1].insert(threads);
}

//===----------------------------------------------------------------------===//
// Ring phases
//===----------------------------------------------------------------------===//

/// Whether phases `a` and `b` use the same slot of a ring of `depth`.
static bool isSameSlot(int64_t a, int64_t b, int64_t depth) {
  int64_t diff = a > b ? a - b : b - a; // (phases are non-negative)
  return diff % depth == 0;
}

/// The entry of `phase` in `state`'s ring, if any.
static const RingPhase *findPhase(const ElementState &state, int64_t phase) {
  for (const RingPhase &entry : state.ring)
    if (entry.phase == phase)
      return &entry;
  return nullptr;
}

/// The entry of `phase` in `state`'s ring, made (in phase order) if missing.
static RingPhase &getPhase(ElementState &state, int64_t phase) {
  auto it = llvm::lower_bound(
      state.ring, phase,
      [](const RingPhase &entry, int64_t p) { return entry.phase < p; });
  if (it == state.ring.end() || it->phase != phase) {
    it = state.ring.insert(it, RingPhase());
    it->phase = phase;
  }
  return *it;
}

/// The first thread of a finite, non-empty set.
static GlobalThread getFirstThread(const ThreadSet &threads) {
  return *threads.findNotIn(ThreadSet());
}

/// A record of `records` that no thread of `threads` sees on the ring
/// timeline (with `some`), or that some thread of `threads` does not see.
static std::optional<VisibilityRecord>
findUnseen(ArrayRef<VisibilityRecord> records, const ThreadSet &threads,
           bool some) {
  std::optional<RejectedRecord> rejected =
      findRejectedRecord(records, threads, getRingMask(),
                         VisibilityLevel::fully_ordered, /*convergent=*/some);
  if (!rejected)
    return std::nullopt;
  return rejected->record;
}

/// A record of `records` (a member, for a group) that some thread of
/// `threads` sees on the ring timeline.
static std::optional<VisibilityRecord>
findSeen(ArrayRef<VisibilityRecord> records, const ThreadSet &threads) {
  for (const VisibilityRecord &record : records) {
    bool common = record.visibility.isSeenBy(threads, getRingMask(),
                                             VisibilityLevel::unordered);
    if (!record.isGroup) {
      if (common)
        return record;
      continue;
    }
    if (common)
      return record.getMember(getFirstThread(record.actors));
    if (record.memberLevel >= VisibilityLevel::unordered)
      if (std::optional<GlobalThread> member = record.actors.findIn(threads))
        return record.getMember(*member);
  }
  return std::nullopt;
}

/// The first record of a list of `entry` (signals, completions, awaits).
static const VisibilityRecord &getFirstRecord(const RingPhase &entry) {
  for (const std::vector<VisibilityRecord> *records :
       {&entry.signals, &entry.completions, &entry.awaits})
    if (!records->empty())
      return records->front();
  llvm_unreachable("an empty ring phase is dropped");
}

/// The name of a phase's ring slot, for errors: `slot 1 of @full[0]'s ring
/// of 5`.
static std::string describeSlot(const ElementKey &key, int64_t phase,
                                int64_t depth) {
  return "slot " + std::to_string(phase % depth) + " of " + format(key) +
         "'s ring of " + std::to_string(depth);
}

/// The arrivals an arrive by `threads` at `elements` barrier elements brings
/// (saturating).
static int64_t countArrivals(const ThreadSet &threads, size_t elements) {
  int64_t arrivals;
  if (llvm::MulOverflow(threads.count(), int64_t(elements), arrivals))
    return std::numeric_limits<int64_t>::max();
  return arrivals;
}

/// How the ring depth comes about, for the notes of errors.
static constexpr StringLiteral kDepthOrigin =
    "the CUDA translation makes every mbarrier element of a kernel a ring of "
    "1 + (the sum of the largest await lag of each of its mbarriers) "
    "mbarriers (docs/abstract-machine.md, \"Rings\")";

//===----------------------------------------------------------------------===//
// RingRules
//===----------------------------------------------------------------------===//

void RingRules::allocate(StringAttr var, std::optional<int64_t> depth) {
  variables.erase(var);
  for (auto it = skipped.begin(); it != skipped.end();)
    it = it->first.first.var == var ? skipped.erase(it) : std::next(it);
  if (depth)
    variables[var].depth = *depth;
}

const RingRules::Variable *RingRules::lookup(StringAttr var) const {
  auto it = variables.find(var);
  return it == variables.end() ? nullptr : &it->second;
}

/// `fn` applied to the state of element `key` (without copying it).
static LogicalResult
withState(SyncStore &store, const ElementKey &key,
          function_ref<LogicalResult(const ElementState &)> fn) {
  LogicalResult result = success();
  store.visit(getElementWindow(key), /*distinct=*/false,
              [&](const ElementKey &, const ElementState &state) {
                result = fn(state);
                return true;
              });
  return result;
}

/// The last signal of `entry` (an arrive or a completion), if any.
static const VisibilityRecord *getLastSignal(const RingPhase &entry) {
  if (!entry.signals.empty())
    return &entry.signals.back();
  if (!entry.completions.empty())
    return &entry.completions.back();
  return nullptr;
}

/// Reports that the first await of `entry.unpassed` may pass only after
/// `entry`'s phase completed; `reuse` is where the slot is used next, if
/// anywhere.
static void reportUnpassed(const ElementKey &key, const RingPhase &entry,
                           int64_t depth, std::optional<Location> reuse,
                           Location lifetimeEnd) {
  const VisibilityRecord &await = entry.unpassed.front();
  InFlightDiagnostic diag = emitError(await.origin);
  diag << "ring overrun: this await of phase " << entry.phase - depth << " of "
       << format(key) << " may pass only after phase " << entry.phase
       << ", the next phase of its ring slot ("
       << describeSlot(key, entry.phase, depth)
       << "), completed: no signal of that phase is ordered after "
       << formatThread(getFirstThread(await.actors), getOnlyTask(await.actors))
       << " passed it, and its parity wait would then wait for a later phase "
          "(the "
          "signaling threads run more than "
       << depth << " phases ahead of the awaiting ones)";
  if (const VisibilityRecord *last = getLastSignal(entry))
    diag.attachNote(last->origin) << "the last signal of phase " << entry.phase;
  if (reuse)
    diag.attachNote(*reuse) << "the ring slot is used again here";
  else
    diag.attachNote(lifetimeEnd)
        << "the lifetime of " << format(key) << " ends here";
  diag.attachNote(lifetimeEnd) << kDepthOrigin;
}

LogicalResult RingRules::checkArrivals(const ElementKey &key,
                                       const RingPhase &entry,
                                       const Variable &variable,
                                       Location next) {
  if (!variable.arrivals)
    return success();
  int64_t arrivals = 0;
  for (const VisibilityRecord &signal : entry.signals)
    if (llvm::AddOverflow(arrivals, signal.actors.count(), arrivals))
      return success();
  auto [counted, first] = *variable.arrivals;
  if (arrivals >= counted)
    return success();
  // The phase never completes: its awaits wait forever, and the next phase
  // of the slot would count toward it.
  InFlightDiagnostic diag =
      emitError(entry.awaits.empty() ? next : entry.awaits.front().origin);
  if (!entry.awaits.empty())
    diag << "hang: this await waits for phase " << entry.phase << " of "
         << format(key) << ", which ";
  else
    diag << "hang: phase " << entry.phase << " of " << format(key) << " ";
  diag << "gets " << arrivals << " of the " << counted
       << " arrivals its ring counts, so it never completes on the hardware "
          "(a multicast arrive reaches the element in every CTA of its "
          "window, each of which must arrive in each phase)";
  if (const VisibilityRecord *last = getLastSignal(entry))
    diag.attachNote(last->origin)
        << "the arrivals of phase " << entry.phase << " come from here";
  diag.attachNote(first) << "the arrive that sets the ring's arrival count";
  return failure();
}

LogicalResult RingRules::checkSignal(Operation *op, const ThreadSet &threads,
                                     const ElementKey &key,
                                     const ElementState &state,
                                     const Variable &variable, int64_t phase,
                                     bool arrive) {
  int64_t depth = variable.depth;
  StringRef what = arrive ? "arrive" : "asynchronous completion";
  // Liveness first: an await of this phase that these threads are ordered
  // after waits for this arrive, which waits for it.
  if (arrive)
    if (const RingPhase *entry = findPhase(state, phase))
      if (std::optional<VisibilityRecord> await =
              findSeen(entry->awaits, threads)) {
        InFlightDiagnostic diag = emitError(await->origin);
        diag << "hang: this await waits for phase " << phase << " of "
             << format(key) << ", which the arrive noted below completes, "
             << "which waits for this await: the arrive by "
             << formatThreads(threads, getOnlyTask(threads))
             << " is ordered after "
             << formatThread(getFirstThread(await->actors),
                             getOnlyTask(threads))
             << " passed it";
        diag.attachNote(op->getLoc())
            << "the arrive that completes phase " << phase << " of "
            << format(key) << ", ordered after the await";
        return failure();
      }
  for (const RingPhase &entry : state.ring) {
    if (!isSameSlot(entry.phase, phase, depth))
      continue;
    if (entry.phase > phase) {
      const VisibilityRecord &later = getFirstRecord(entry);
      InFlightDiagnostic diag = emitError(op->getLoc());
      diag << "ring overrun: this " << what << " of phase " << phase << " of "
           << format(key) << " comes after phase " << entry.phase
           << " used the same ring slot (" << describeSlot(key, phase, depth)
           << "): on the hardware that later phase's events count toward "
              "this one";
      diag.attachNote(later.origin)
          << "phase " << entry.phase << " of " << format(key) << " is here";
      diag.attachNote(op->getLoc()) << kDepthOrigin;
      return failure();
    }
    if (entry.phase != phase - depth)
      continue;
    if (failed(checkArrivals(key, entry, variable, op->getLoc())))
      return failure();
    std::optional<VisibilityRecord> unfinished =
        findUnseen(entry.signals, threads, /*some=*/true);
    if (!unfinished)
      unfinished = findUnseen(entry.completions, threads, /*some=*/true);
    if (unfinished) {
      InFlightDiagnostic diag = emitError(op->getLoc());
      diag << "ring overrun: this " << what << " of phase " << phase << " of "
           << format(key) << " may run before phase " << entry.phase
           << ", the previous phase of its ring slot ("
           << describeSlot(key, phase, depth)
           << "), completed: the hardware would count it toward phase "
           << entry.phase;
      diag.attachNote(unfinished->origin)
          << "this signal of phase " << entry.phase
          << " is not ordered before it";
      diag.attachNote(op->getLoc()) << kDepthOrigin;
      return failure();
    }
    // Every await of the slot's phase before must have passed before that
    // phase completed, i.e. before one of its signals.
    if (!entry.unpassed.empty()) {
      reportUnpassed(key, entry, depth, op->getLoc(), op->getLoc());
      return failure();
    }
  }
  return success();
}

/// Records a signal of `phase` by `threads` (`signal`: a completion if
/// `completion`) in `state`: the awaits of the slot's previous phase that
/// no signal of the phase is ordered after yet, the signal, and what no
/// later check needs.
static void addSignal(ElementState &state, int64_t phase, int64_t depth,
                      const ThreadSet &threads, VisibilityRecord signal,
                      bool completion) {
  RingPhase &entry = getPhase(state, phase);
  // The awaits no thread of `threads` sees; of a group, the members (a
  // member sees its own await).
  auto unseen = [&](ArrayRef<VisibilityRecord> awaits) {
    std::vector<VisibilityRecord> left;
    for (const VisibilityRecord &await : awaits) {
      if (await.visibility.isSeenBy(threads, getRingMask(),
                                    VisibilityLevel::unordered))
        continue;
      if (!await.isGroup || !await.actors.intersects(threads)) {
        left.push_back(await);
        continue;
      }
      ThreadSet rest = await.actors.subtract(threads);
      if (rest.empty())
        continue;
      if (rest.count() == 1) {
        left.push_back(await.getMember(getFirstThread(rest)));
        continue;
      }
      VisibilityRecord part = await;
      part.actors = std::move(rest);
      left.push_back(std::move(part));
    }
    // (Copies: the store indexes them as records of their cell.)
    for (VisibilityRecord &record : left)
      record.indexed = false;
    return left;
  };
  if (entry.signals.empty() && entry.completions.empty()) {
    if (const RingPhase *previous = findPhase(state, phase - depth))
      entry.unpassed = unseen(previous->awaits);
  } else {
    entry.unpassed = unseen(entry.unpassed);
  }
  (completion ? entry.completions : entry.signals).push_back(std::move(signal));
  // On the slot: the signals two turns back and (their obligations moved
  // into this phase) the awaits one turn back are needed no more.
  for (RingPhase &other : state.ring) {
    if (other.phase >= phase || !isSameSlot(other.phase, phase, depth))
      continue;
    other.awaits.clear();
    if (other.phase <= phase - 2 * depth) {
      other.signals.clear();
      other.completions.clear();
      other.unpassed.clear();
    }
  }
  llvm::erase_if(state.ring,
                 [](const RingPhase &other) { return other.empty(); });
}

LogicalResult RingRules::checkArrive(Operation *op, SyncStore &store,
                                     const ThreadSet &threads,
                                     const ElementKey &home, int64_t phase,
                                     ArrayRef<ElementKey> elements) {
  const Variable *variable = lookup(home.var);
  if (!variable)
    return success();
  // The arrivals the ring counts per phase: every arrive brings as many.
  int64_t arrivals = countArrivals(threads, elements.size());
  if (variable->arrivals && variable->arrivals->first != arrivals) {
    auto [counted, first] = *variable->arrivals;
    InFlightDiagnostic diag = emitError(op->getLoc());
    diag << "hang: this arrive brings " << arrivals << " arrival(s) to phase "
         << phase << " of " << format(home) << ", an earlier arrive on @"
         << home.var.getValue() << " " << counted
         << ": the translation gives every ring of @" << home.var.getValue()
         << " one arrival count, so on the hardware a phase of the smaller "
            "arrive never completes and its awaits wait forever (the arrives "
            "on a barrier variable come from collectives of one size)";
    diag.attachNote(first)
        << "the earlier arrive (its threads times the elements it reaches)";
    return failure();
  }
  auto arriver = variable->homeArrivers.find(home);
  if (arriver != variable->homeArrivers.end() &&
      !(arriver->second.first == threads)) {
    InFlightDiagnostic diag = emitError(op->getLoc());
    diag << "several collectives arrive at " << format(home)
         << ": this arrive by " << formatThreads(threads, getOnlyTask(threads))
         << " signals phase " << phase << ", earlier phases were signaled by "
         << formatThreads(arriver->second.first, getOnlyTask(threads))
         << "; the hardware completes a phase with the arrivals of whichever "
            "collective comes first, and the check pairs an await with one "
            "arrive only if a single collective arrives at the element, in "
            "its program order (arrive once with the union of the threads, "
            "or give each collective its own element)";
    diag.attachNote(arriver->second.second) << "the earlier arrive";
    return failure();
  }
  if (std::optional<std::pair<GlobalThread, int64_t>> other =
          variable->arrived.findOther(threads, phase)) {
    emitError(op->getLoc())
        << "this arrive signals phase " << phase << " of " << format(home)
        << ", but " << formatThread(other->first, getOnlyTask(threads))
        << " made " << other->second << " arrive(s) on @" << home.var.getValue()
        << " before it: the translation numbers each thread's arrives on a "
           "barrier variable (arrive j uses ring slot j mod "
        << variable->depth
        << "), so on the hardware it would signal another phase (each thread "
           "arrives, as home, at one element of a barrier variable)";
    return failure();
  }
  for (const ElementKey &key : elements)
    if (failed(withState(store, key, [&](const ElementState &state) {
          return checkSignal(op, threads, key, state, *variable, phase,
                             /*arrive=*/true);
        })))
      return failure();
  return success();
}

void RingRules::recordArrive(Operation *op, SyncStore &store,
                             const ThreadSet &threads, const ElementKey &home,
                             int64_t phase, ArrayRef<ElementKey> elements) {
  auto it = variables.find(home.var);
  if (it == variables.end())
    return;
  Variable &variable = it->second;
  variable.arrived.increment(threads, phase);
  if (!variable.arrivals)
    variable.arrivals = {countArrivals(threads, elements.size()), op->getLoc()};
  variable.homeArrivers.try_emplace(home, threads, op->getLoc());
  // One signal seen by the arriving collective: the arrive is one event.
  std::vector<VisibilityRecord> signal =
      makeRecords(VisibilityLevel::fully_ordered, /*convergent=*/true,
                  kRingTimeline, 0, {}, threads, op->getLoc(), /*group=*/false);
  for (const ElementKey &key : elements)
    store.update(getElementWindow(key), [&](ElementState &state) {
      addSignal(state, phase, variable.depth, threads, signal.front(),
                /*completion=*/false);
      return true;
    });
}

LogicalResult
RingRules::checkComplete(Operation *op, SyncStore &store,
                         const ThreadSet &threads,
                         ArrayRef<std::pair<ElementKey, int64_t>> phases) {
  for (const auto &[key, phase] : phases)
    if (const Variable *variable = lookup(key.var))
      if (failed(withState(store, key, [&](const ElementState &state) {
            return checkSignal(op, threads, key, state, *variable, phase,
                               /*arrive=*/false);
          })))
        return failure();
  return success();
}

void RingRules::recordComplete(
    Operation *op, SyncStore &store, const ThreadSet &threads,
    ArrayRef<std::pair<ElementKey, int64_t>> phases) {
  for (const auto &[key, phase] : phases) {
    const Variable *variable = lookup(key.var);
    if (!variable)
      continue;
    // Seen by no thread: the bytes land when they land; an await of the
    // phase raises it.
    VisibilityRecord completion{kRingTimeline, {}, {}, op->getLoc(), threads};
    store.update(getElementWindow(key), [&](ElementState &state) {
      addSignal(state, phase, variable->depth, threads, completion,
                /*completion=*/true);
      return true;
    });
  }
}

LogicalResult RingRules::checkAwaitOn(Operation *op, const ThreadSet &threads,
                                      const ElementKey &key,
                                      const ElementState &state,
                                      const Variable *variable, int64_t n,
                                      int64_t max,
                                      SmallVector<int64_t> &skips) {
  int64_t depth = variable->depth;
  if (n >= 0) {
    // The translation waits for the awaiting threads' own arrive number
    // (their count) - n - 1: they must be the arriving ones.
    std::optional<std::pair<GlobalThread, int64_t>> other =
        variable->arrived.findOther(threads, state.arrives);
    if (other || max < 0) {
      InFlightDiagnostic diag = emitError(op->getLoc());
      diag << "an await with N = " << n
           << " waits for the awaiting threads' own arrives on @"
           << key.var.getValue() << " (their N-th latest), but ";
      if (other)
        diag << formatThread(other->first, getOnlyTask(threads)) << " made "
             << other->second << " arrive(s) on @" << key.var.getValue()
             << " where " << format(key) << " has " << state.arrives
             << ": on the hardware it would wait for another phase";
      else
        diag << format(key) << " has " << state.arrives
             << " arrive(s): the hardware would wait for arrive "
             << state.arrives - n - 1 << ", which does not exist";
      diag << "; use N < 0 (ring lag ~N) to wait for other threads' "
              "arrives";
      return failure();
    }
  } else if (std::optional<std::pair<GlobalThread, int64_t>> other =
                 variable->awaited.findOther(threads, state.awaits)) {
    emitError(op->getLoc())
        << "this await is await " << state.awaits << " of " << format(key)
        << ", but " << formatThread(other->first, getOnlyTask(threads))
        << " made " << other->second << " await(s) on @" << key.var.getValue()
        << " before it: the translation numbers each thread's awaits on a "
           "barrier variable, so on the hardware it would wait for another "
           "phase (each thread awaits one element of a barrier variable, "
           "every phase of it)";
    return failure();
  }
  if (max < 0)
    return success();
  for (const RingPhase &entry : state.ring) {
    if (entry.phase > max && isSameSlot(entry.phase, max, depth) &&
        (!entry.signals.empty() || !entry.completions.empty())) {
      const VisibilityRecord &later = getFirstRecord(entry);
      InFlightDiagnostic diag = emitError(op->getLoc());
      diag << "ring overrun: this await of phase " << max << " of "
           << format(key) << " comes after phase " << entry.phase
           << " signaled the same ring slot (" << describeSlot(key, max, depth)
           << "): its parity wait may then wait for a later phase";
      diag.attachNote(later.origin)
          << "phase " << entry.phase << " of " << format(key) << " is here";
      diag.attachNote(op->getLoc()) << kDepthOrigin;
      return failure();
    }
    if (entry.phase > max - depth && entry.phase < max &&
        findUnseen(entry.completions, threads, /*some=*/false))
      skips.push_back(entry.phase);
  }
  // (For the notes of hazards on the skipped completions' records.)
  for (int64_t phase : skips)
    skipped.insert_or_assign({key, phase},
                             SkippedWait{key, phase, max, op->getLoc()});
  return success();
}

FailureOr<SmallVector<int64_t>>
RingRules::checkAwait(Operation *op, SyncStore &store, const ThreadSet &threads,
                      const ElementKey &key, int64_t n, int64_t max) {
  SmallVector<int64_t> skips;
  const Variable *variable = lookup(key.var);
  if (variable && failed(withState(store, key, [&](const ElementState &state) {
        return checkAwaitOn(op, threads, key, state, variable, n, max, skips);
      })))
    return failure();
  return skips;
}

void RingRules::recordAwait(Operation *op, SyncStore &store,
                            const ThreadSet &threads, const ElementKey &key,
                            int64_t awaits, int64_t n, int64_t max) {
  auto it = variables.find(key.var);
  if (it == variables.end())
    return;
  Variable &variable = it->second;
  if (n < 0)
    variable.awaited.increment(threads, awaits);
  if (max < 0)
    return;
  std::vector<VisibilityRecord> passed =
      makeRecords(VisibilityLevel::fully_ordered, /*convergent=*/false,
                  kRingTimeline, 0, {}, threads, op->getLoc(), group);
  store.update(getElementWindow(key), [&](ElementState &element) {
    // The wait returns after every signal of its phase: they are ordered
    // before whatever the awaiting threads do next.
    RingPhase &entry = getPhase(element, max);
    for (std::vector<VisibilityRecord> *records :
         {&entry.signals, &entry.completions})
      for (VisibilityRecord &signal : *records)
        augment(signal, threads, getRingMask(), 0);
    llvm::append_range(entry.awaits, passed);
    return true;
  });
}

LogicalResult RingRules::checkLifetimeEnd(Operation *op, const ElementKey &key,
                                          const ElementState &state) {
  if (!isRing(key.var))
    return success();
  int64_t phases = state.getPhases();
  int64_t depth = variables.find(key.var)->second.depth;
  for (const RingPhase &entry : state.ring) {
    if (entry.phase < phases || entry.awaits.empty())
      continue;
    const VisibilityRecord &await = entry.awaits.front();
    InFlightDiagnostic diag = emitError(await.origin);
    diag << "hang: this await waits for phase " << entry.phase << " of "
         << format(key) << ", which no arrive completes: " << format(key)
         << " has " << phases << " phase(s) when its lifetime ends";
    diag.attachNote(op->getLoc())
        << "the lifetime of " << format(key) << " ends here";
    return failure();
  }
  const Variable &variable = variables.find(key.var)->second;
  for (const RingPhase &entry : state.ring) {
    if (entry.phase < phases &&
        failed(checkArrivals(key, entry, variable, op->getLoc())))
      return failure();
    if (!entry.unpassed.empty()) {
      reportUnpassed(key, entry, depth, std::nullopt, op->getLoc());
      return failure();
    }
  }
  // The translation initializes the rings once per kernel and its counters
  // run on into the next lifetime (the next task of the CTA): the element's
  // arriving threads must leave them where its ring is.
  if (state.arrives != 0 && state.arrives != phases) {
    emitError(op->getLoc())
        << "the arriving threads of " << format(key) << " made "
        << state.arrives << " arrive(s) on it, but its ring went through "
        << phases
        << " phase(s) (arrives of other CTAs reached it): their counters, "
           "which the translation keeps for the next lifetime of "
        << format(key) << ", would be out of step with its ring";
    return failure();
  }
  return success();
}

std::optional<RingRules::SkippedWait>
RingRules::findSkippedWait(const VisibilityRecord &record) const {
  for (const auto &[key, count] : record.arrives) {
    auto it = skipped.find({key, count});
    if (it != skipped.end())
      return it->second;
  }
  return std::nullopt;
}
