// The calendar's stylesheet, bundled by Vite.
declare module 'react-big-calendar/lib/css/react-big-calendar.css';
