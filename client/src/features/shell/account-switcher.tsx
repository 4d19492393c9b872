import { useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Loader, Menu, Text } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import type { AccountTree } from '@plant/shared-schema';
import { IconCheck, IconChevronDown, IconSearch } from '../../components/icons';
import {
  accountCounts,
  accountTreeAtom,
  loadAccountTree,
  treeNodes,
} from '../../session/account-tree';
import { switchAccount } from '../../session/session';
import { sessionAtom } from '../../state/session';
import classes from './shell.module.css';
import { Name } from '../../components/name';

/** From this many accounts on, the switcher offers a search field. */
const SEARCH_FROM = 8;

/** How deep each node sits (the answer is flat, in tree order, parents before children). */
export function depthsOf(nodes: AccountTree): Map<string, number> {
  const depths = new Map<string, number>();
  for (const node of nodes) {
    const parent = node.parent_id === null ? undefined : depths.get(node.parent_id);
    depths.set(node.id, parent === undefined ? 0 : parent + 1);
  }
  return depths;
}

/**
 * The account switcher (spec 000 §3, §4): the accounts of GET user/accounts as an indented tree
 * with their user and asset counts, 'Deactivated' on inactive ones, searchable when long. The
 * tree is read each time it opens (the counts change), into the one tree the account list reads
 * too (session/account-tree.ts: both show the same counts); choosing an account the user works in
 * switches to it (the overlay shows the switch); the current account and accounts the user only
 * sees from above (no role there) cannot be chosen.
 */
export function AccountSwitcher({ narrow }: { readonly narrow: boolean }) {
  const { t } = useLingui();
  const router = useRouter();
  const user = useAtomValue(sessionAtom)?.user;
  const account = user?.activeAccount ?? null;
  const tree = useAtomValue(accountTreeAtom);
  const [search, setSearch] = useState('');

  const choose = (id: string, name: string) => {
    void switchAccount({ accountId: id, accountName: name }, async (to) => {
      await router.navigate({ to });
    });
  };

  const nodes = treeNodes(tree, user?.id);
  const depths = depthsOf(nodes);
  const load = () => (user === undefined ? Promise.resolve() : loadAccountTree(user.id));
  const countsOf = (id: string) => accountCounts(nodes, id) ?? { users: 0, assets: 0 };
  const needle = search.trim().toLocaleLowerCase();
  const shown =
    needle === '' ? nodes : nodes.filter((n) => n.text.toLocaleLowerCase().includes(needle));
  const name = account?.name ?? '';

  return (
    <Menu
      position="bottom-end"
      width={340}
      onOpen={() => void load()}
      onClose={() => setSearch('')}
      withinPortal
    >
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          size={narrow ? 'compact-sm' : 'sm'}
          rightSection={<IconChevronDown size={16} />}
          className={classes.accountButton}
          title={t`Switch account`}
          data-testid="account-switcher"
        >
          <Text span inherit truncate="end">
            <Name>{name}</Name>
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="account-switcher-menu">
        <Menu.Label>
          <Trans>Switch account</Trans>
        </Menu.Label>
        {nodes.length >= SEARCH_FROM ? (
          <Menu.Search
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            placeholder={t`Search accounts`}
            aria-label={t`Search accounts`}
            leftSection={<IconSearch size={16} />}
          />
        ) : null}
        {tree.name === 'loading' && nodes.length === 0 ? (
          <Menu.Label role="status">
            <Loader size="xs" /> <Trans>Loading accounts...</Trans>
          </Menu.Label>
        ) : null}
        {tree.name === 'failed' ? (
          <>
            <Menu.Label role="alert">
              <Trans>The accounts could not be loaded. Check the connection.</Trans>
            </Menu.Label>
            <Menu.Item closeMenuOnClick={false} onClick={() => void load()}>
              <Trans>Try again</Trans>
            </Menu.Item>
          </>
        ) : null}
        {tree.name !== 'idle' && shown.length === 0 && nodes.length > 0 ? (
          <Menu.Label>
            <Trans>No account matches.</Trans>
          </Menu.Label>
        ) : null}
        <div className={classes.accountList}>
          {shown.map((node) => (
            <Menu.Item
              key={node.id}
              disabled={!node.switchable}
              aria-current={node.current ? 'true' : undefined}
              data-testid="account-option"
              data-account-id={node.id}
              closeMenuOnClick
              onClick={() => {
                if (node.switchable && !node.current) choose(node.id, node.text);
              }}
              style={{
                paddingInlineStart: `calc(var(--mantine-spacing-sm) + ${needle === '' ? (depths.get(node.id) ?? 0) * 18 : 0}px)`,
              }}
              rightSection={node.current ? <IconCheck size={16} /> : null}
            >
              <Text size="sm" fw={node.current ? 600 : 400}>
                <Name>{node.text}</Name>
              </Text>
              <span className={classes.accountMeta}>
                <Text span size="xs" c="dimmed">
                  <Plural value={countsOf(node.id).users} one="# user" other="# users" />
                  {' · '}
                  <Plural value={countsOf(node.id).assets} one="# asset" other="# assets" />
                </Text>
                {node.value.active ? null : (
                  <Badge size="xs" color="gray" variant="light">
                    <Trans>Deactivated</Trans>
                  </Badge>
                )}
                {node.switchable ? null : (
                  <Text span size="xs" c="dimmed">
                    <Trans>no role here</Trans>
                  </Text>
                )}
              </span>
            </Menu.Item>
          ))}
        </div>
      </Menu.Dropdown>
    </Menu>
  );
}
