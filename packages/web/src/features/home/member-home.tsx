import { Button, Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { Suspense } from 'react';
import { Link } from 'react-router';
import { useIdentity } from '../../platform/identity.ts';
import { memberShortcutsOf, useModules } from '../../platform/modules/modules-context.tsx';
import { PageHeader } from '../../platform/page.tsx';

/**
 * `/m`: where members land after signing in: a card for each shortcut the member area's modules declare, with what
 * the member has there now (the shortcut's Summary).
 */
export function MemberHome() {
  const me = useIdentity();
  const first = (me.user.displayName || me.user.username).split(' ')[0];
  const shortcuts = memberShortcutsOf(useModules());
  return (
    <>
      <PageHeader
        title={`Welcome, ${first}`}
        description={`This is your member area at ${me.tenant.name}.`}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {shortcuts.map((s) => {
          const id = `home-${s.to.replace(/[^a-z0-9]+/gi, '-')}`;
          return (
            <Card key={s.to} withBorder component="section" aria-labelledby={id}>
              <Group gap="sm" mb="xs">
                <ThemeIcon variant="light" aria-hidden>
                  <s.icon size={18} />
                </ThemeIcon>
                <Text fw={700} component="h2" id={id}>
                  {s.title}
                </Text>
              </Group>
              <Text size="sm" c="dimmed" mb={s.Summary ? 'xs' : 'md'}>
                {s.description}
              </Text>
              {s.Summary ? (
                <Suspense fallback={null}>
                  <s.Summary />
                </Suspense>
              ) : null}
              <Button component={Link} to={s.to} variant="light" w="fit-content">
                {s.action}
              </Button>
            </Card>
          );
        })}
      </SimpleGrid>
    </>
  );
}
