import type { SvgIconComponent } from '@mui/icons-material';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import ViewKanbanIcon from '@mui/icons-material/ViewKanbanOutlined';
import FlashOnIcon from '@mui/icons-material/FlashOn';
import ChecklistIcon from '@mui/icons-material/Checklist';
import ContactPhoneIcon from '@mui/icons-material/ContactPhoneOutlined';
import EventIcon from '@mui/icons-material/Event';
import LocalOfferIcon from '@mui/icons-material/LocalOfferOutlined';
import ForumIcon from '@mui/icons-material/ForumOutlined';
import HelpIcon from '@mui/icons-material/HelpOutlined';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import PeopleIcon from '@mui/icons-material/PeopleOutlined';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import AnnouncementIcon from '@mui/icons-material/AnnouncementOutlined';
import PsychologyIcon from '@mui/icons-material/Psychology';
import MenuBookIcon from '@mui/icons-material/MenuBookOutlined';
import DeviceHubIcon from '@mui/icons-material/DeviceHubOutlined';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import AccountTreeIcon from '@mui/icons-material/AccountTreeOutlined';
import CodeIcon from '@mui/icons-material/Code';
import TuneIcon from '@mui/icons-material/Tune';
import AttachMoneyIcon from '@mui/icons-material/AttachMoney';
import PolicyIcon from '@mui/icons-material/PolicyOutlined';
import DnsIcon from '@mui/icons-material/DnsOutlined';
import NotificationsIcon from '@mui/icons-material/NotificationsActiveOutlined';

export const MENU_ICONS: Record<string, SvgIconComponent> = {
  dashboard: DashboardIcon,
  tickets: WhatsAppIcon,
  kanban: ViewKanbanIcon,
  quickMessages: FlashOnIcon,
  todolist: ChecklistIcon,
  contacts: ContactPhoneIcon,
  schedules: EventIcon,
  tags: LocalOfferIcon,
  chats: ForumIcon,
  helps: HelpIcon,
  campaignsList: CampaignIcon,
  contactLists: PeopleIcon,
  campaignsConfig: SettingsIcon,
  announcements: AnnouncementIcon,
  prompts: PsychologyIcon,
  knowledge: MenuBookIcon,
  queueIntegration: DeviceHubIcon,
  connections: SyncAltIcon,
  files: AttachFileIcon,
  queues: AccountTreeIcon,
  customFields: TuneIcon,
  users: PeopleIcon,
  messagesApi: CodeIcon,
  financeiro: AttachMoneyIcon,
  settings: SettingsIcon,
  audit: PolicyIcon,
  fleet: DnsIcon,
  notifications: NotificationsIcon,
};
