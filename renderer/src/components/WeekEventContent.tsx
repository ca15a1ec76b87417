import type { EventContentArg } from '@fullcalendar/core';
import { WHOLE_TERM_CODE } from '../../../core/domain/parts';
import { instructorsOf } from '../lib/resource-rows';
import type { Entry } from '../api/wire';
import type { DraftBlock } from '../lib/draft-review';
import { useDraftReview } from '../stores/draft-review';

/** A block's accessible name and hover text. */
export function labelBlock(block: HTMLElement | null, label: string): void {
  if (!block) return;
  if (block.getAttribute('aria-label') !== label) block.setAttribute('aria-label', label);
  if (block.getAttribute('title') !== label) block.setAttribute('title', label);
}

/** Relabels the block a content node is drawn in: its label follows the data on every render. */
const relabelWith =
  (label: string) =>
  (node: HTMLElement | null): void =>
    labelBlock(node?.closest<HTMLElement>('.fc-event') ?? null, label);

/** A crowded time's "+N sections" block. */
function FoldContent({ count, label }: { count: number; label: string }) {
  return (
    <div ref={relabelWith(label)} data-testid="slot-more" data-count={count} style={{ fontSize: 11, padding: 2 }}>
      <b>+{count} sections</b>
      <div>click to list</div>
    </div>
  );
}

/** A block's title: the course code in full, then the section and the rest as space allows. */
function CodeFirst({ title, code }: { title: string; code: string }) {
  return (
    <b>
      <span className="tw-code" data-testid="event-code">
        {code}
      </span>
      {title.slice(code.length)}
    </b>
  );
}

/**
 * A section of an auto-fill draft: its code whole, as a stored meeting's, in the draft's pattern and
 * named a draft; dimmed and named "left out" while its review row is unchecked.
 */
function DraftContent({ title, placement, label }: { title: string; placement: DraftBlock; label: string }) {
  const code = title.startsWith(placement.course_code) ? placement.course_code : '';
  const kept = useDraftReview((s) => !s.left.has(placement.key));
  return (
    <div
      ref={relabelWith(kept ? label : label.replace(/^Draft, not stored:/, 'Draft, left out:'))}
      className={`tw-event tw-preview-content${kept ? '' : ' tw-draft-left'}`}
      data-testid="draft-event"
      data-key={placement.key}
      data-kept={kept}
    >
      <CodeFirst title={title} code={code} />
      <div>{placement.doctors.map((d) => d.name).join(', ')}</div>
      <div>
        {placement.room} · {kept ? 'draft' : 'left out'}
      </div>
    </div>
  );
}

/** A stored meeting: its code whole, then the section, instructors, room, campus and part, its curriculum clashes and a refusal of its last move. */
function EntryContent({
  id,
  title,
  entry,
  label,
  campusCount,
  refusal,
}: {
  id: number;
  title: string;
  entry: Entry | undefined;
  label: string;
  campusCount: number;
  refusal: string | null;
}) {
  const part = entry && entry.part_of_term !== WHOLE_TERM_CODE ? ` · part ${entry.part_of_term}` : '';
  const code = entry && title.startsWith(entry.course_code) ? entry.course_code : '';
  return (
    <div ref={relabelWith(label)} className="tw-event" data-testid={`event-${id}`} data-entry-id={id}>
      <CodeFirst title={title} code={code} />
      <div>{instructorsOf(entry)}</div>
      <div>
        {entry?.room}
        {campusCount > 1 && entry ? ` · ${entry.campus}` : ''}
        {part}
      </div>
      {entry && entry.curriculum_conflicts.length > 0 && (
        <div className="tw-event-curriculum" data-testid="event-curriculum" title={entry.warnings.filter((w) => w.startsWith('Curriculum')).join('\n')}>
          Clashes for students with {entry.curriculum_conflicts.join(', ')}
        </div>
      )}
      {refusal !== null && (
        // Inside the block only: the refusal's words are in the note above the week.
        <div className="tw-event-error" data-testid="event-refusal" title={refusal}>
          Not moved (see above)
        </div>
      )}
    </div>
  );
}

/** What a calendar block draws, from the event FullCalendar hands over. */
export function WeekEventContent({
  arg,
  entriesById,
  label,
  campusCount,
  refusal,
}: {
  arg: EventContentArg;
  entriesById: ReadonlyMap<number, Entry>;
  label: string;
  campusCount: number;
  refusal: { entryId: number | null; message: string } | null;
}) {
  const hidden = arg.event.extendedProps.hiddenEntries as number[] | undefined;
  if (hidden) return <FoldContent count={hidden.length} label={label} />;
  const placement = arg.event.extendedProps.draft as DraftBlock | undefined;
  if (placement) return <DraftContent title={arg.event.title} placement={placement} label={label} />;
  const id = Number(arg.event.groupId);
  return (
    <EntryContent
      id={id}
      title={arg.event.title}
      entry={entriesById.get(id)}
      label={label}
      campusCount={campusCount}
      refusal={refusal?.entryId === id ? refusal.message : null}
    />
  );
}
