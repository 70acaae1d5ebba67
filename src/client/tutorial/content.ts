import type { Locale } from '../providers/i18nProvider';

/**
 * The tutorial (/tutorial), in both languages side by side: a guide is long prose, easier to keep
 * true when each sentence sits next to its translation than in two message files. The page's own
 * labels (contents, print, back) are in the message files (qe.tutorial.*).
 */
export type Bilingual = Record<Locale, string>;

export interface TutorialSection {
  /** the anchor: /tutorial#<part>-<id> */
  id: string;
  title: Bilingual;
  paragraphs: Bilingual[];
  /** numbered steps, when the section is a procedure */
  steps?: Bilingual[];
}

export interface TutorialPart {
  id: 'students' | 'teachers' | 'administrators';
  title: Bilingual;
  intro: Bilingual;
  sections: TutorialSection[];
}

const t = (zh: string, en: string): Bilingual => ({ 'zh-hk': zh, en });

export const TUTORIAL: TutorialPart[] = [
  {
    id: 'students',
    title: t('學生篇：填寫問卷', 'For students: answering questionnaires'),
    intro: t(
      '學校會給你一個帳戶。登入後，「我的問卷」會列出所有要你填寫的問卷。',
      'The school gives you an account. Once you log in, “My questionnaires” lists every questionnaire you are asked to answer.',
    ),
    sections: [
      {
        id: 'login',
        title: t('登入', 'Logging in'),
        paragraphs: [
          t(
            '在登入頁輸入學校給你的用戶名稱及密碼。如果你收到的電郵內有問卷連結，按連結可直接開啟該問卷，無須再輸入密碼；連結只對你本人有效，請勿轉發。',
            'Enter the user name and password the school gave you on the login page. If an e-mail from the school holds a link to a questionnaire, the link opens it for you without a password; it works for you alone, so do not pass it on.',
          ),
          t(
            '第一次登入後，可在右上角的帳戶選單「更改密碼」。密碼須為 6 至 15 個字元。',
            'After your first login you can change your password from the account menu at the top right (“Change password”). A password has 6 to 15 characters.',
          ),
        ],
      },
      {
        id: 'list',
        title: t('我的問卷', 'My questionnaires'),
        paragraphs: [
          t(
            '列表先列出進行中的問卷，並預設顯示本學年；你可按學年、問卷狀態及「我的狀態」（未提交／已提交）篩選。在手機上，每份問卷顯示為一張卡。',
            'The list shows questionnaires in progress first, for the current school year by default; filter it by school year, questionnaire status and “My status” (not submitted / submitted). On a phone each questionnaire is a card.',
          ),
          t(
            '每份問卷都有你的「指定編號」：這是學校在這份問卷中識別你的編號，如老師問起，可以此編號作答。',
            'Each questionnaire shows your “designated code”: the code the school knows you by in that questionnaire. Quote it if a teacher asks which reply is yours.',
          ),
        ],
      },
      {
        id: 'answer',
        title: t('填寫及提交', 'Answering and submitting'),
        paragraphs: [
          t(
            '按問卷即可開始填寫。有 * 號的是必答問題。問卷可分為幾個部分，用「下一頁」及「上一頁」移動。你的答案會一邊填寫一邊保存在此裝置上，即使關閉瀏覽器，回來時仍在；但未提交前，學校看不到。',
            'Open a questionnaire to start. Questions marked * must be answered. A questionnaire may have several sections: move with Next and Back. Your answers are kept on this device as you type, so they are still there if you close the browser; the school sees nothing until you submit.',
          ),
          t(
            '「已提交」的意思是學校已收到並儲存你的回覆：提交後不能再修改，問卷會以唯讀方式顯示你的答案。不記名問卷提交後，連你自己也不能再看到答案，學校亦不會知道哪份回覆是你的。',
            '“Submitted” means the school has received and stored your reply: it cannot be changed afterwards, and the questionnaire shows your answers read only. After an anonymous questionnaire is submitted, not even you can see the answers again, and the school cannot tell which reply is yours.',
          ),
          t(
            '如提交時顯示錯誤，問題旁會有說明；改正後再提交即可。網絡中斷時可再按提交，不會重複提交。',
            'If the submission shows problems, each is explained beside its question: correct them and submit again. If the network drops, press Submit again; your reply is never stored twice.',
          ),
        ],
      },
      {
        id: 'dates',
        title: t('開始及結束日期', 'Open and end dates'),
        paragraphs: [
          t(
            '問卷在開始日期前顯示「未開始」，在結束日期後顯示「已完結」；這兩種情況都不能作答。請留意列表上的結束日期。',
            'Before its open date a questionnaire shows “Not open yet”, after its end date “Finished”; neither can be answered. Watch the end date in the list.',
          ),
        ],
      },
    ],
  },
  {
    id: 'teachers',
    title: t('教師篇：設計問卷及查看結果', 'For teachers: designing questionnaires and reading results'),
    intro: t(
      '教師在「問卷設計」建立問卷、選擇對象、開放及提醒，再在「數據統計」查看結果。你亦可能是別人問卷的協助者。',
      'Teachers create a questionnaire under “Questionnaire design”, choose who answers, open it and remind people, then read the results under “Data statistics”. You may also assist on a colleague’s questionnaire.',
    ),
    sections: [
      {
        id: 'design',
        title: t('設計問卷', 'Designing'),
        paragraphs: [
          t(
            '在「問卷列表」按「新增問卷」，填寫標題、類型（記名或不記名）、開始及結束日期，再按「儲存並編輯問卷」進入設計畫面。',
            'In “Questionnaires” press “New questionnaire”, give the title, the type (named or anonymous) and the open and end dates, then “Save and edit questionnaire” to reach the designer.',
          ),
          t(
            '設計畫面可加入部分及問題（簡答、段落、單選、多選、下拉選單、評分、方格、日期、時間等），設定必答、選項及跳到哪一部分，亦可加入圖片。按「預覽」可看到學生所見的樣子。',
            'In the designer add sections and questions (short answer, paragraph, single and multiple choice, drop-down, scale, grids, date, time…), mark them required, set their choices and which section an answer goes to, and add images. “Preview” shows what a respondent will see.',
          ),
          t(
            '問卷負責人可加入協助者，協助者可一同編輯及查看結果。「複製為新問卷」會複製問題、對象及類型，方便每年重用。',
            'The teacher in charge may add assistants, who edit and read results too. “Copy as new questionnaire” copies the questions, audience and type, handy for reusing a questionnaire every year.',
          ),
        ],
      },
      {
        id: 'target',
        title: t('選擇目標對象', 'Choosing who answers'),
        paragraphs: [
          t(
            '在問卷資料的「目標對象」加入全部學生、全部教師、年級、班別、教師組別或個別人士；畫面會顯示合共多少人。對象以問卷所屬學年的班別計算。',
            'Under “Target users” add all students, all teachers, grades, classes, teacher groups or single people; the screen shows how many people that makes. Classes are those of the questionnaire’s school year.',
          ),
        ],
      },
      {
        id: 'open',
        title: t('開放問卷', 'Opening'),
        paragraphs: [
          t(
            '設計好後按「設計完成」：問卷須最少有一條問題、有目標對象及兩個日期。到了開始日期，問卷會自動變為「進行中」；開始前可「取消完成」再修改。',
            'When the design is done press “Design complete”: a questionnaire needs at least one question, an audience and both dates. At its open date it becomes “In progress” by itself; before that, “Cancel ready” lets you change it again.',
          ),
          t(
            '進行中的問卷不能再改問題或對象。結束日期只可延後（用「延長」，或在編輯資料時改為較遲的日期）；如要即時結束，請按「提前結束」。',
            'Once in progress, its questions and audience are fixed. The end date can only move later (with “Extend”, or a later date when editing the details); to end it now, use “Close early”.',
          ),
        ],
      },
      {
        id: 'remind',
        title: t('發送提醒', 'Reminding'),
        paragraphs: [
          t(
            '進行中的問卷可按「發送通知」，以電郵提醒所有尚未提交的人；每封電郵附有收件人專用的問卷連結。完成後會顯示成功及失敗的數目，以及沒有電郵地址而未能通知的人數（請管理員補回他們的電郵地址）。',
            'For a questionnaire in progress, “Send notice” e-mails everyone who has not submitted, each with their own link to it. Afterwards QE says how many mails went out, how many failed, and how many people have no e-mail address and could not be told (ask an administrator to add their addresses).',
          ),
        ],
      },
      {
        id: 'results',
        title: t('查看結果', 'Reading results'),
        paragraphs: [
          t(
            '在「數據統計」選擇問卷，可看到回覆率、每條問題的圖表及文字答案，以及記名問卷中誰已提交。可匯出 Excel 或列印 PDF 報告。',
            'Under “Data statistics” choose a questionnaire to see the response rate, a chart per question and the text answers, and for a named questionnaire who has submitted. Export to Excel or print a PDF report.',
          ),
          t(
            '不記名問卷的回覆只以編號顯示，而且要累積到一定數量才會顯示，以免從提交時間認出個別學生。',
            'Replies to an anonymous questionnaire are numbered, never named, and are shown only once enough have arrived, so that no one can be recognised by when they submitted.',
          ),
        ],
      },
    ],
  },
  {
    id: 'administrators',
    title: t('管理員篇：學校資料、學年、角色及備份', 'For administrators: school data, school years, roles and backups'),
    intro: t(
      '管理員在「主要資料」管理學年、年級及班別、教職員及學生，並設定郵件；超級管理員亦管理角色及權限。',
      'Administrators keep the school’s data under “Master data”: school years, grades and classes, staff and students, and the mail setting; a super administrator also manages roles and permissions.',
    ),
    sections: [
      {
        id: 'import',
        title: t('匯入資料', 'Importing'),
        paragraphs: [
          t(
            '在教師、學生、管理員等列表按「匯入」，先「下載範本」，按範本每行填一筆記錄，再上載 Excel 檔案（.xlsx 或 .xls）。有錯誤時不會寫入任何記錄，訊息會指出哪一行哪一欄出錯；改正後再上載即可。',
            'In the lists of teachers, students, administrators and others press “Import”, “Download template”, fill in one record per row and upload the Excel file (.xlsx or .xls). If anything is wrong nothing is written, and the messages name the row and column: correct them and upload again.',
          ),
          t('「匯出」會把列表下載為 Excel，可作記錄或修改後再匯入。', '“Export” downloads a list as Excel, to keep or to change and import again.'),
        ],
      },
      {
        id: 'years',
        title: t('學年、年級及班別', 'School years, grades and classes'),
        paragraphs: [
          t(
            '在「學年」建立學年及其學期，並指定一個為本學年。學生的班別及學號按學年記錄，所以舊學年的問卷及統計會保留學生當年的班別。',
            'Under “School years” create each year and its terms and mark one as the current year. A student’s class and class number are kept per year, so the questionnaires and statistics of past years keep the class each student had then.',
          ),
          t(
            '「年級及班別」列出每個年級的班別；班別編號在全校唯一，同一次儲存中可互換兩班的編號。',
            '“Grades and classes” lists each grade’s classes; a class code is unique in the whole school, and two classes may swap codes in one save.',
          ),
          t(
            '在「學年」列表按「新學年」開啟升班精靈：它會建立下一學年及其學期，讓所有在學學生升一級（預設同一班別字母，可逐班更改對照，欠缺的班別可一併建立），畢業年級的學生離校；寫入前先顯示每班升班後的人數，確認後一次過完成，並可即時或於指定日期切換目前學年。在學生列表、學生資料及匯入選擇下一學年，可預先輸入新生及下學年的班別及班號。',
            'On the “School years” list, “New school year” opens the roll-over wizard: it creates next year and its terms, moves every student in school one grade up (the same class letter by default; you can send each class elsewhere, and create the classes next year lacks), and lets the graduating grade leave. It shows the students per class after the roll-over before anything is written, does it all at once when you confirm, and makes the new year current at once or on the day you choose. Choose next year on the student list, a student’s record or the import to enter new pupils and next year’s classes and numbers beforehand.',
          ),
        ],
        steps: [
          t('在「學年」列表按「新學年」。', 'On the “School years” list, choose “New school year”.'),
          t('檢查畢業年級及升班對照，按需要逐班更改；下方的升班後人數會即時更新。', 'Check the graduating grade and the class mapping, changing a class where needed; the counts after the roll-over follow at once.'),
          t('選擇立即或於指定日期（年-月-日）轉換目前學年。', 'Choose whether the new year becomes current at once or on a day (yyyy-MM-dd).'),
          t('按「開始升班」，細閱確認內容後按「確定升班」。畢業生會於轉換時離校，並記下離校日期。', 'Choose “Roll over…”, read the confirmation and choose “Roll over”. Graduates leave at the switch, with that day as their leave date.'),
        ],
      },
      {
        id: 'settings',
        title: t('學校設定', 'School settings'),
        paragraphs: [
          t(
            '「學校設定」包括中英文校名、校徽（顯示於頂欄及登入頁）、地址、電話、傳真、電郵、畢業年級，以及使用的語言及哪些語言必須填寫：不是必填的語言，其名稱在各表格及匯入中都可留空。「建立問卷者須綁定 Google 帳戶」預設為關閉，只有設定了 Google 登入才可開啟；沒有 Google 設定的學校同樣可以建立、設計、開放、填寫及統計問卷。改動即時對所有用戶生效。',
            '“School settings” hold both school names, the logo (shown in the top bar and on the login page), addresses, phone, fax, e-mail, the graduating grade, and the languages in use with which of them must be filled in: a name in a language that is not required may be left empty in every form and import. “Creators must bind a Google account” is off by default and can be turned on only where Google sign-in is configured; a school with no Google settings creates, designs, opens, answers and reads questionnaires all the same. Changes take effect for everyone at once.',
          ),
          t(
            '「郵件設定」填寫學校的 SMTP 伺服器及提醒電郵範本，可先發送測試郵件。',
            'The “Mail setting” holds the school’s SMTP server and the reminder template; send a test mail before relying on it.',
          ),
        ],
      },
      {
        id: 'staff',
        title: t('教職員個人資料', 'Staff personal data'),
        paragraphs: [
          t(
            '在「個人資料 → 我的個人資料」，有「個人」及「申請」權限的教職員可修改自己的電話、性別、出生日期、身份證明文件（號碼顯示時會遮蓋）及頭像；修改會先成為「等待」（WAITTING），由有「審批」權限的人在「個人資料審批」中「確認」（CONFIRM）或附理由「拒絕」（REJECT），拒絕的理由會顯示在申請人的頁面。沒有人可審批自己的申請。管理員亦可在教師及管理員的記錄及匯入中直接填寫這些資料。',
            'Under “Personal data → My personal data”, staff holding the Personal and Apply actions edit their own phone, gender, birthday, identity document (its number is always shown masked) and avatar; a change waits (WAITTING) until someone holding Approve confirms it (CONFIRM) or rejects it with a reason (REJECT) under “Personal data approval”; the reason is shown on the applicant’s page. Nobody decides their own request. Administrators can also fill in these fields directly in the teacher and administrator records and imports.',
          ),
        ],
      },
      {
        id: 'roles',
        title: t('角色及權限', 'Roles and permissions'),
        paragraphs: [
          t(
            '每個角色屬於一種用戶類型，並擁有各頁面的操作（查看、新增、編輯、刪除、匯入、匯出等）。在「角色」可新增角色、設定權限及把角色分配給用戶；改動在用戶下一次操作時生效。',
            'Each role belongs to a user type and holds actions on each page (view, add, edit, delete, import, export…). Under “Roles” add roles, set their permissions and give them to users; a change applies from the user’s next request.',
          ),
          t(
            '每種用戶類型有一個「新帳戶角色」，新建或匯入的帳戶會得到此角色。此角色可以改名，但不能刪除或改為其他用戶類型；如要更換，請在同類的另一個角色開啟「新帳戶角色」。',
            'Each user type has one role “for new accounts”: every account created or imported gets it. That role may be renamed, but not deleted or moved to another user type; to change it, switch “For new accounts” on for another role of the same type.',
          ),
          t(
            '超級管理員在「選單及操作」刪除的頁面或操作，重新啟動 QE 後不會再出現；升級帶來的新頁面或操作則會自動加入。',
            'A page or action a super administrator deletes under “Menus and actions” stays deleted when QE restarts; pages and actions an upgrade brings are added by themselves.',
          ),
        ],
      },
      {
        id: 'backups',
        title: t('備份', 'Backups'),
        paragraphs: [
          t(
            '超級管理員在「備份及還原」畫面製作及管理備份。備份是一個包含全校資料（所有記錄及上載的檔案）的檔案，製作時 QE 照常運作；可用密碼短語加密。請把備份下載並另存於伺服器以外的地方。',
            'The super administrator makes and manages backups on the “Backup and restore” screen. A backup is one file holding the whole school (every record and uploaded file), made while QE keeps running; it can be encrypted with a passphrase. Download backups and keep copies away from the server.',
          ),
          t(
            '還原會以備份內容取代現有的一切，並登出所有用戶。還原前 QE 會先檢查整個備份；損壞、不完整或曾被更改的檔案會被拒絕，現有資料不受影響。伺服器管理人員亦可用指令 npm run backup 及 npm run restore，把學校由 SQLite 搬到 PostgreSQL。',
            'A restore replaces everything with the backup’s contents and logs everyone out. QE checks the whole backup first; a damaged, incomplete or changed file is refused and the current data is untouched. Whoever runs the server can also use npm run backup and npm run restore, which also move a school from SQLite to PostgreSQL.',
          ),
        ],
        steps: [
          t('按「立即備份」；如需加密，開啟「以密碼短語加密」並輸入兩次密碼短語（請記下，遺失便不能還原）。', 'Choose “Make a backup now”; to encrypt it, turn on “Encrypt with a passphrase” and type the passphrase twice (write it down: without it the backup cannot be restored).'),
          t('進度完成後會顯示「備份成功」；在列表按下載圖示把備份另存。', 'When the progress ends “Backup succeeded” shows; download the backup from the list and keep it elsewhere.'),
          t('在「定時備份」設定備份頻率及保留數目。', 'Under “Scheduled backups” set how often a backup is made and how many are kept.'),
          t('還原：在列表按還原圖示，或按「從檔案還原…」上載備份；細閱警告，輸入備份名稱（及密碼短語）後按「還原」。完成後會顯示「還原成功」，所有人須重新登入。', 'To restore: choose the restore icon of a backup, or “Restore from a file…” to upload one; read the warning, type the backup’s name (and its passphrase) and choose “Restore”. “Restore succeeded” shows and everyone logs in again.'),
        ],
      },
    ],
  },
];
