import { useEffect, useState } from 'react';
import { Alert, Box, Button, Grid, MenuItem, Paper, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { SETTING_VALUES, type SettingKey } from '#shared/constants';
import type { Setting } from '#shared/schemas/accounts';
import { SETTING_KEYS, SETTING_POLICY, mayWriteSetting, settingRole } from '#shared/settings-policy';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { notify } from '../components/toast';
import { HoursEditor } from '../queues/HoursEditor';
import { invalidHours, weekOf, type DayHours } from '../queues/hours';
import { useSettings } from './useSettings';
import { CopilotPromptSetting } from './CopilotPromptSetting';
import { CompaniesTab } from './CompaniesTab';
import { HelpsTab } from './HelpsTab';
import { PlansTab } from './PlansTab';

type SettingsTab = 'options' | 'schedules' | 'companies' | 'plans' | 'helps';

/**
 * Settings (management.md "Settings page" and section 9): every option with its values, each saved
 * on change with `PUT /settings/{key}` and a toast; the company business-hours tab only while
 * scheduleType is 'company'; companies, plans and helps for super users only.
 */
export default function SettingsPage() {
  const { t } = useTranslation(['settings', 'common']);
  const { user } = useAuth();
  const { value, mutate, isLoading } = useSettings();
  const [tab, setTab] = useState<SettingsTab>('options');
  const isSuper = Boolean(user?.super);
  const [drafts, setDrafts] = useState<Partial<Record<SettingKey, string>>>({});
  const [week, setWeek] = useState<DayHours[] | null>(null);
  const companyHours = value('scheduleType') === 'company';

  useEffect(() => {
    if ((!companyHours && tab === 'schedules') || (!isSuper && ['companies', 'plans', 'helps'].includes(tab)))
      setTab('options');
  }, [companyHours, isSuper, tab]);

  useEffect(() => {
    if (!companyHours || !user?.companyId) return;
    api
      .get<{ schedules: DayHours[] }>(`/companies/${user.companyId}/schedules`)
      .then((r) => setWeek(weekOf(r.schedules)))
      .catch(toastError);
  }, [companyHours, user?.companyId]);

  const save = async (key: SettingKey, next: string) => {
    try {
      const setting = await api.put<Setting>(`/settings/${key}`, { value: next });
      void mutate((list) => [...(list ?? []).filter((s) => s.key !== key), setting ?? { key, value: next }], {
        revalidate: false,
      });
      notify.success(t('saved'));
    } catch (err) {
      toastError(err);
    }
  };

  const saveSchedules = async () => {
    if (!week || !user) return;
    if (invalidHours(week).length) return notify.error(t('hoursInvalid'));
    try {
      await api.put(`/companies/${user.companyId}/schedules`, { schedules: week });
      notify.success(t('schedulesSaved'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Box sx={{ p: 2, overflowY: 'auto', height: '100%' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('title')}
      </Typography>
      <Paper variant="outlined">
        <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ borderBottom: 1, borderColor: 'divider', px: 2 }}>
          <Tab value="options" label={t('tabs.options')} />
          {companyHours && <Tab value="schedules" label={t('tabs.schedules')} />}
          {isSuper && <Tab value="companies" label={t('tabs.companies')} />}
          {isSuper && <Tab value="plans" label={t('tabs.plans')} />}
          {isSuper && <Tab value="helps" label={t('tabs.helps')} />}
        </Tabs>
        {tab === 'options' && (
          <Grid container spacing={2} sx={{ p: 2 }}>
            {SETTING_KEYS.map((key) => {
              const options = SETTING_VALUES[key];
              const writable = Boolean(user && mayWriteSetting(key, settingRole(user), user.companyId));
              const draft = drafts[key];
              if (key === 'copilotPromptId')
                return (
                  <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
                    <CopilotPromptSetting
                      value={value(key)}
                      disabled={isLoading || !writable}
                      onChange={(next) => void save(key, next)}
                    />
                  </Grid>
                );
              return (
                <Grid key={key} size={options ? { xs: 12, sm: 6, md: 4 } : { xs: 12, md: 8 }}>
                  {options ? (
                    <TextField
                      select
                      fullWidth
                      size="small"
                      label={t(`keys.${key}`)}
                      value={value(key)}
                      disabled={isLoading || !writable}
                      onChange={(e) => void save(key, e.target.value)}
                    >
                      {options.map((v) => (
                        <MenuItem key={v} value={v}>
                          {t(`values.${v}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  ) : (
                    <TextField
                      fullWidth
                      size="small"
                      label={t(`keys.${key}`)}
                      disabled={!writable}
                      value={draft ?? value(key)}
                      // a secret arrives masked (••••1234): focusing selects it so typing replaces it whole
                      onFocus={(e) => SETTING_POLICY[key].secret && e.target.select()}
                      onChange={(e) => setDrafts((d) => ({ ...d, [key]: e.target.value }))}
                      onBlur={() => {
                        if (draft === undefined) return;
                        setDrafts(({ [key]: _, ...rest }) => rest);
                        if (draft !== value(key)) void save(key, draft);
                      }}
                    />
                  )}
                </Grid>
              );
            })}
          </Grid>
        )}
        {tab === 'schedules' && companyHours && (
          <Box sx={{ p: 2, maxWidth: 640 }}>
            <Alert severity="info" sx={{ mb: 1 }}>
              {t('schedulesHint')}
            </Alert>
            {week && <HoursEditor week={week} onChange={setWeek} />}
            <Button variant="contained" sx={{ mt: 2 }} onClick={() => void saveSchedules()}>
              {t('saveSchedules')}
            </Button>
          </Box>
        )}
        {isSuper && tab === 'companies' && (
          <Box sx={{ height: 'calc(100dvh - 200px)', minHeight: 360 }}>
            <CompaniesTab />
          </Box>
        )}
        {isSuper && tab === 'plans' && <PlansTab />}
        {isSuper && tab === 'helps' && <HelpsTab />}
      </Paper>
    </Box>
  );
}
