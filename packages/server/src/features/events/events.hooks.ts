/**
 * What events need from the database on the generic layer's writes, in the write's transaction: a custom repeat
 * rule is checked, the occurrences follow the event's times and rule, and an occurrence changed by hand becomes an
 * exception the rule leaves alone.
 */
import { q } from '@guildhall/db';
import { resolveTimeZone } from '@guildhall/shared';
import { recurrenceProblem } from '@guildhall/shared/events/recurrence.rules';
import { HttpError } from '../../platform/errors.ts';
import type { ResourceHooks } from '../../platform/resources/hooks.ts';
import { prepareRegistration, refreshCertifications } from './events.certifications.ts';
import { forgetFull } from './events.full.ts';
import { MAX_OCCURRENCE_DAYS, refreshEventSearch, refreshEventsSearch, rows } from './events.repo.ts';
import { syncOccurrences } from './events.service.ts';

export function eventsHooks(): Record<string, ResourceHooks> {
  return {
    eventCategories: {
      // Events are found by their category's name: a renamed (or deleted) category rewrites its events' documents.
      async afterWrite(tx, auth, change) {
        if (change.kind === 'create') return;
        const categoryId = Number(change.after.CategoryId ?? change.before?.CategoryId);
        if (!Number.isFinite(categoryId)) return;
        await refreshEventsSearch(tx, auth.tenantId, q`e.category_id = ${categoryId}`);
      },
    },
    events: {
      async beforeSave(_tx, auth, model) {
        const start = typeof model.StartsAt === 'string' ? Date.parse(model.StartsAt) : Number.NaN;
        const end = typeof model.EndsAt === 'string' ? Date.parse(model.EndsAt) : Number.NaN;
        if (
          Number.isFinite(start) &&
          Number.isFinite(end) &&
          end - start > MAX_OCCURRENCE_DAYS * 86_400_000
        ) {
          const text = `An occurrence may last at most ${MAX_OCCURRENCE_DAYS} days; make it repeat instead.`;
          throw new HttpError(400, text, { EndsAt: [text] });
        }
        const timezone = resolveTimeZone(
          (model.TimezoneId as string | null | undefined) ?? auth.tenantSettings?.defaultTimezone,
        );
        if (model.Repeats === 'custom') {
          const rule = typeof model.RecurrenceRule === 'string' ? model.RecurrenceRule.trim() : '';
          const problem = rule
            ? recurrenceProblem(rule, String(model.StartsAt), timezone)
            : 'Write the repeat rule, or choose how the event repeats.';
          if (problem) throw new HttpError(400, problem, { RecurrenceRule: [problem] });
        }
        return { ...model, TimezoneId: model.TimezoneId || timezone };
      },
      async afterWrite(tx, auth, change) {
        // A capacity or waitlist changed: no occurrence of the association stays known full on this process.
        forgetFull(auth.tenantId);
        const eventId = Number(change.after.EventId);
        if (change.kind === 'create' || change.kind === 'update')
          await syncOccurrences(tx, auth.tenantId, eventId, auth.tenantSettings?.defaultTimezone);
        await refreshEventSearch(tx, auth.tenantId, eventId);
      },
    },
    // A registration in a certification programme: its period and credits required from the programme, and its
    // progress from the credits already earned in that period (decision 0142).
    CertificationRegistration: {
      beforeSave: (tx, auth, model) => prepareRegistration(tx, auth.tenantId, model),
      async afterWrite(tx, auth, change) {
        if (change.kind !== 'create' && change.kind !== 'update') return;
        const id = Number(change.after.CertificationRegistrationId);
        await refreshCertifications(tx, auth.tenantId, q`r.certification_registration_id = ${id}`);
      },
    },
    eventDetails: {
      async afterWrite(tx, auth, change) {
        forgetFull(auth.tenantId);
        if (change.kind !== 'update') return;
        // Moved or cancelled by hand: a later change of the repeat rule leaves it as it is.
        await rows(
          tx,
          q`update event_details set is_exception = true
            where tenant_id = ${auth.tenantId} and event_detail_id = ${Number(change.after.EventDetailId)} and not is_exception`,
        );
      },
    },
  };
}
