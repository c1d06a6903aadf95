/**
 * Certification programmes (decision 0142): a registration's period, the credits required when it was made, and
 * its progress, the credits its contact earned at events checked in within the period. Check-in and its undo call
 * `refreshCertifications` in their transaction, so progress and completion always follow the attendance.
 */
import { type Fragment, q, type Tx } from '@guildhall/db';
import type { MemberCertification } from '@guildhall/shared';
import { HttpError, notFound } from '../../platform/errors.ts';
import { iso, num, one, rows, strOrNull } from './events.repo.ts';

/** Recomputes the credits earned, status and completion of the live registrations `which` selects (alias r). */
export async function refreshCertifications(tx: Tx, tenantId: string, which: Fragment): Promise<void> {
  await rows(
    tx,
    q`with earned as (
        select r.certification_registration_id as id, coalesce((
          select sum(a.credits_earned) from event_attendees a
          where a.tenant_id = r.tenant_id and a.contact_id = r.contact_id and not a.is_deleted
            and a.checked_in_at is not null and a.credits_earned is not null
            and a.checked_in_at >= r.starts_on::timestamptz and a.checked_in_at < (r.ends_on + 1)::timestamptz
        ), 0)::int as credits, r.required_credits
        from certification_registrations r
        where r.tenant_id = ${tenantId} and not r.is_deleted and ${which}
      )
      update certification_registrations c set credits_earned = earned.credits,
        status = case when earned.credits >= earned.required_credits then 'completed' else 'in-progress' end,
        completed_at = case when earned.credits >= earned.required_credits then coalesce(c.completed_at, now()) end,
        updated_at = now()
      from earned
      where c.tenant_id = ${tenantId} and c.certification_registration_id = earned.id
      returning c.certification_registration_id`,
  );
}

/** After a check-in or its undo: the registrations of the attendee's contact. */
export function refreshForAttendee(tx: Tx, tenantId: string, attendeeId: number): Promise<void> {
  return refreshCertifications(
    tx,
    tenantId,
    q`r.contact_id = (select contact_id from event_attendees where tenant_id = ${tenantId} and attendee_id = ${attendeeId})`,
  );
}

/**
 * Before a registration is saved: the programme must be one of this association's, a contact is registered once
 * per programme, the start defaults to today, and the end and credits required come from the programme.
 */
export async function prepareRegistration(
  tx: Tx,
  tenantId: string,
  model: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const programmeId = Number(model.ProgrammeId);
  const contactId = Number(model.ContactId);
  const programme = await one<{ required_credits: unknown; period_months: unknown }>(
    tx,
    q`select required_credits, period_months from certification_programmes
      where tenant_id = ${tenantId} and programme_id = ${Number.isFinite(programmeId) ? programmeId : -1} and not is_deleted`,
  );
  if (!programme) {
    const text = 'Choose a certification programme of this association.';
    throw new HttpError(400, text, { ProgrammeId: [text] });
  }
  const selfId = Number(model.CertificationRegistrationId);
  const twice = await one(
    tx,
    q`select 1 from certification_registrations
      where tenant_id = ${tenantId} and programme_id = ${programmeId} and contact_id = ${contactId} and not is_deleted
        ${Number.isFinite(selfId) ? q`and certification_registration_id <> ${selfId}` : q``}`,
  );
  if (twice) {
    const text = 'This contact is already registered in this programme.';
    throw new HttpError(400, text, { ContactId: [text] });
  }
  const startsOn = typeof model.StartsOn === 'string' && model.StartsOn ? model.StartsOn.slice(0, 10) : null;
  const dates = await one<{ starts_on: string; ends_on: string }>(
    tx,
    q`select s::text as starts_on,
        (s + make_interval(months => ${num(programme.period_months)}::int) - interval '1 day')::date::text as ends_on
      from (select coalesce(${startsOn}::date, current_date) as s) d`,
  );
  return {
    ...model,
    StartsOn: dates?.starts_on,
    EndsOn: dates?.ends_on,
    RequiredCredits: num(programme.required_credits),
  };
}

/** The programmes a member may see: the open ones and those they are registered in, with their own progress only. */
export async function memberCertifications(
  tx: Tx,
  tenantId: string,
  contactId: number,
): Promise<MemberCertification[]> {
  const found = await rows<Record<string, unknown>>(
    tx,
    q`select p.programme_id, p.name, p.description, p.required_credits as programme_credits, p.period_months,
        not p.staff_only as open_to_members, r.certification_registration_id, r.starts_on::text as starts_on, r.ends_on::text as ends_on,
        r.required_credits, r.credits_earned, r.status, ${iso('r.completed_at')} as completed_at
      from certification_programmes p
      left join certification_registrations r on r.tenant_id = p.tenant_id and r.programme_id = p.programme_id
        and r.contact_id = ${contactId} and not r.is_deleted
      where p.tenant_id = ${tenantId} and not p.is_deleted and (not p.staff_only or r.certification_registration_id is not null)
      order by p.name, p.programme_id`,
  );
  return found.map((r) => ({
    ProgrammeId: num(r.programme_id),
    Name: String(r.name),
    Description: strOrNull(r.description),
    RequiredCredits: num(r.programme_credits),
    PeriodMonths: num(r.period_months),
    OpenToMembers: r.open_to_members === true,
    Registration:
      r.certification_registration_id === null || r.certification_registration_id === undefined
        ? null
        : {
            CertificationRegistrationId: num(r.certification_registration_id),
            StartsOn: String(r.starts_on),
            EndsOn: String(r.ends_on),
            RequiredCredits: num(r.required_credits),
            CreditsEarned: num(r.credits_earned),
            Status: String(r.status),
            CompletedAt: strOrNull(r.completed_at),
          },
  }));
}

/** A member registers themselves in a programme open to members; credits already earned in the period count. */
export async function memberRegisterCertification(
  tx: Tx,
  tenantId: string,
  contactId: number,
  programmeId: number,
): Promise<{ CertificationRegistrationId: number; message: string }> {
  const open = await one<{ name: string }>(
    tx,
    q`select name from certification_programmes
      where tenant_id = ${tenantId} and programme_id = ${programmeId} and not is_deleted and not staff_only`,
  );
  if (!open) throw notFound();
  const model = await prepareRegistration(tx, tenantId, { ProgrammeId: programmeId, ContactId: contactId });
  const made = await one<{ id: unknown }>(
    tx,
    q`insert into certification_registrations (tenant_id, programme_id, contact_id, starts_on, ends_on, required_credits)
      values (${tenantId}, ${programmeId}, ${contactId}, ${String(model.StartsOn)}::date, ${String(model.EndsOn)}::date, ${num(model.RequiredCredits)})
      returning certification_registration_id as id`,
  );
  const id = num(made?.id);
  await refreshCertifications(tx, tenantId, q`r.certification_registration_id = ${id}`);
  return { CertificationRegistrationId: id, message: `You are registered in ${open.name}.` };
}
