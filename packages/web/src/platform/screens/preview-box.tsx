import {
  displayTimeZone,
  type FieldType,
  type Model,
  type ResourceDeclaration,
  resourceStateName,
} from '@guildhall/shared';
import { Anchor, Card, Group, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { CSSProperties, MouseEvent, ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorBlock } from '../error-block.tsx';
import { displayFor } from '../fields/field-registry.ts';
import { useIdentity } from '../identity.ts';
import { LoadingBlock, PageHeader } from '../page.tsx';
import { usePublishScreenHandle } from '../route-handle.ts';
import { TextModeProvider } from '../text-mode.tsx';
import { rowLabel } from './list-cell.tsx';
import { useRecordSlots } from './record-slots.tsx';
import { listPath, recordPath, resourceByRoute } from './resources.ts';
import { previewFields } from './screen-options.ts';
import { fetchRecord } from './screens-api.ts';

/**
 * Values of many lines or many items wrap within their column; a feature's renderer (a slot) draws what it likes
 * and wraps too. Every other value is one line, cut with an ellipsis at its column's edge (never drawn over the
 * next column), the whole value in its title when the pointer is over it.
 */
const WRAPPED: ReadonlySet<FieldType> = new Set<FieldType>(['textarea', 'richText', 'multiSelect', 'flags']);

const CUT: CSSProperties = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' };

/** A cut value's whole text as its title, while it is cut (a value that fits has no title). */
function titleWhenCut(e: MouseEvent<HTMLElement>) {
  const el = e.currentTarget;
  if (el.scrollWidth > el.clientWidth) el.title = el.textContent ?? '';
  else el.removeAttribute('title');
}

/** PreviewBox: a compact read-only card of a record (label, then its preview fields as terms and values). */
export function PreviewCard({
  resource,
  record,
  actions,
  headingLevel = 2,
  title,
  fields,
}: {
  resource: ResourceDeclaration;
  record: Model;
  actions?: ReactNode;
  headingLevel?: 2 | 3;
  /** The card's heading; the record's label otherwise. */
  title?: string;
  /** The fields shown; the resource's preview fields otherwise. */
  fields?: readonly string[];
}) {
  const me = useIdentity();
  // A feature's field renderers, when the card is part of a record it embeds (`RecordSlots.fields`).
  const slots = useRecordSlots();
  const label = title ?? rowLabel(resource, record, displayTimeZone(me));
  return (
    <Card
      withBorder
      padding="md"
      component="section"
      aria-label={`${resource.title}: ${label}`}
      data-preview-box
    >
      <Group justify="space-between" wrap="wrap" mb="xs" gap="xs">
        <Title order={headingLevel} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {label}
        </Title>
        {actions}
      </Group>
      <dl
        style={{
          margin: 0,
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 200px), 1fr))',
          gap: '8px 16px',
        }}
      >
        {(fields ?? previewFields(resource)).map((name) => {
          const field = resource.fields[name];
          if (!field) return null;
          const Display = displayFor(field.type);
          const Slot = slots?.fields[name];
          const value = Slot ? (
            <Slot row={record} value={record[name]} onChanged={slots.onChanged} />
          ) : (
            <Display field={field} value={record[name]} context={{ timeZone: displayTimeZone(me) }} />
          );
          const cut = !Slot && !WRAPPED.has(field.type);
          return (
            <div key={name} style={{ minWidth: 0 }}>
              <Text component="dt" size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {field.label}
              </Text>
              {cut ? (
                <Text component="dd" size="sm" m={0} style={CUT} onMouseEnter={titleWhenCut} data-cut>
                  <TextModeProvider mode={0}>{value}</TextModeProvider>
                </Text>
              ) : (
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {value}
                </Text>
              )}
            </div>
          );
        })}
      </dl>
    </Card>
  );
}

/** `/micronet/list/:feature/:subfeature/:id/preview`: the PreviewBox of one record, with a link to open it. */
export function PreviewBoxRoute() {
  const { feature = '', subfeature = '', id = '' } = useParams();
  const resource = resourceByRoute(feature, subfeature);
  usePublishScreenHandle(resource ? resourceStateName(resource, 'Preview') : '', resource?.title ?? '');
  const record = useQuery({
    queryKey: ['record', resource?.name, id, 'preview'],
    queryFn: () => (resource ? fetchRecord(resource, id) : Promise.reject(new Error('unknown'))),
    enabled: resource !== null,
  });
  if (!resource) return <ErrorBlock message="There is no screen at this address." isKnown />;
  return (
    <>
      <PageHeader
        title={`${resource.title}: preview`}
        actions={
          <Anchor component={Link} to={listPath(resource)}>
            Back to {resource.title.toLowerCase()}
          </Anchor>
        }
      />
      {record.error ? <ErrorBlock error={record.error} onRetry={() => void record.refetch()} /> : null}
      {record.data ? (
        <div style={{ maxWidth: 640 }}>
          <PreviewCard
            resource={resource}
            record={record.data}
            actions={
              <Anchor component={Link} to={recordPath(resource, id)} size="sm">
                Open
              </Anchor>
            }
          />
        </div>
      ) : record.isPending ? (
        <LoadingBlock />
      ) : null}
    </>
  );
}
